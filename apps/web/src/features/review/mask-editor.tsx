import { fillMessage } from '@flashcards/shared/messages';
import type { OcclusionShape } from '@flashcards/shared/notes';
import { occlusionMessages } from '@flashcards/shared/occlusion-messages';
import {
  type Dispatch,
  type KeyboardEvent,
  type PointerEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { Button } from '../../components/button';
import {
  type Box,
  boxBetween,
  type Corner,
  cardCount,
  corners,
  type EditorMask,
  keyStep,
  type MaskAction,
  type MaskEditorState,
  minMaskSide,
  moveBox,
  resizeBox,
} from './mask-editing';
import { RadioChoice } from './radio-choice';
import './mask-editor.css';

type Point = { x: number; y: number };
type Drag =
  | { kind: 'move'; start: Point; origin: EditorMask[] }
  | { kind: 'resize'; start: Point; origin: EditorMask; corner: Corner }
  | { kind: 'draw'; start: Point };

/** A corner handle's side, in CSS pixels: big enough for a finger. */
const handleCssPx = 22;

const shapeNames: Record<OcclusionShape, string> = {
  rect: occlusionMessages.shapeRect,
  ellipse: occlusionMessages.shapeEllipse,
};

/** A group's colour: neighbouring group numbers get far-apart hues. */
const groupFill = (group: number) => `hsl(${(group * 137) % 360} 75% 55% / 0.55)`;

const arrowSteps: Record<string, Point> = {
  ArrowLeft: { x: -keyStep, y: 0 },
  ArrowRight: { x: keyStep, y: 0 },
  ArrowUp: { x: 0, y: -keyStep },
  ArrowDown: { x: 0, y: keyStep },
};

/**
 * The masks over the image, edited by mouse, touch (pointer events) and keyboard. The SVG's viewBox is the image's
 * own pixel size, so masks stored as fractions sit on the same labels at any displayed width. Pointer drags place
 * each mask from where it was when the drag began (no drift at the image's edges).
 */
export function MaskEditor({
  imageUrl,
  state,
  dispatch,
}: {
  imageUrl: string;
  state: MaskEditorState;
  dispatch: Dispatch<MaskAction>;
}) {
  const hintId = useId();
  const svgRef = useRef<SVGSVGElement>(null);
  const drag = useRef<Drag | null>(null);
  const focusAfter = useRef<number | 'stage' | null>(null);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [cssPerPixel, setCssPerPixel] = useState(1);
  const [drawing, setDrawing] = useState<Box | null>(null);
  const [shape, setShape] = useState<OcclusionShape>('rect');

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || !natural || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const width = svg.getBoundingClientRect().width;
      if (width > 0) setCssPerPixel(width / natural.width);
    });
    observer.observe(svg);
    return () => observer.disconnect();
  }, [natural]);

  useLayoutEffect(() => {
    const target = focusAfter.current;
    if (target === null) return;
    focusAfter.current = null;
    const svg = svgRef.current;
    const element = target === 'stage' ? svg : svg?.querySelector<SVGElement>(`[data-mask-id="${target}"]`);
    element?.focus();
  });

  const selectedIds = state.selected;
  /** The masks a key or button acts on: the selection, or the focused mask when it is not part of it. */
  const actingOn = (id: number) => (selectedIds.includes(id) ? selectedIds : [id]);

  function pointOf(event: PointerEvent): Point {
    const rect = (svgRef.current as SVGSVGElement).getBoundingClientRect();
    return { x: (event.clientX - rect.left) / rect.width, y: (event.clientY - rect.top) / rect.height };
  }

  function onPointerDown(event: PointerEvent<SVGSVGElement>) {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    const target = event.target as Element;
    const start = pointOf(event);
    const corner = target.getAttribute('data-corner') as Corner | null;
    const maskId = Number(target.getAttribute('data-mask-id') ?? Number.NaN);
    event.currentTarget.setPointerCapture?.(event.pointerId);
    if (corner) {
      const origin = state.masks.find((mask) => mask.id === Number(target.getAttribute('data-for')));
      drag.current = origin ? { kind: 'resize', start, origin, corner } : null;
      return;
    }
    if (Number.isFinite(maskId)) {
      if (event.shiftKey || event.ctrlKey || event.metaKey) {
        dispatch({ type: 'select', id: maskId, toggle: true });
        drag.current = null;
        return;
      }
      const ids = selectedIds.includes(maskId) ? selectedIds : [maskId];
      if (!selectedIds.includes(maskId)) dispatch({ type: 'select', id: maskId, toggle: false });
      drag.current = { kind: 'move', start, origin: state.masks.filter((mask) => ids.includes(mask.id)) };
      return;
    }
    dispatch({ type: 'clear-selection' });
    drag.current = { kind: 'draw', start };
  }

  function onPointerMove(event: PointerEvent<SVGSVGElement>) {
    const current = drag.current;
    if (!current) return;
    const at = pointOf(event);
    const dx = at.x - current.start.x;
    const dy = at.y - current.start.y;
    if (current.kind === 'draw') setDrawing(boxBetween(current.start, at));
    else if (current.kind === 'move') {
      const boxes = current.origin.map((mask) => ({ id: mask.id, ...moveBox(mask, dx, dy) }));
      dispatch({ type: 'place', boxes, resized: false });
    } else {
      const box = resizeBox(current.origin, current.corner, dx, dy);
      dispatch({ type: 'place', boxes: [{ id: current.origin.id, ...box }], resized: true });
    }
  }

  function onPointerEnd(event: PointerEvent<SVGSVGElement>) {
    const current = drag.current;
    drag.current = null;
    setDrawing(null);
    if (current?.kind !== 'draw') return;
    const at = pointOf(event);
    // A tap on the image only clears the selection; a drag draws.
    if (Math.abs(at.x - current.start.x) < minMaskSide && Math.abs(at.y - current.start.y) < minMaskSide) return;
    dispatch({ type: 'add', box: boxBetween(current.start, at), shape });
  }

  function onMaskKeyDown(event: KeyboardEvent<SVGElement>, id: number) {
    const ids = actingOn(id);
    const step = arrowSteps[event.key];
    if (step) {
      event.preventDefault();
      if (!selectedIds.includes(id)) dispatch({ type: 'select', id, toggle: false });
      if (event.shiftKey) dispatch({ type: 'grow', ids, dw: step.x, dh: step.y });
      else dispatch({ type: 'nudge', ids, dx: step.x, dy: step.y });
      return;
    }
    switch (event.key) {
      case ' ':
      case 'Enter':
        event.preventDefault();
        dispatch({ type: 'select', id, toggle: true });
        return;
      case 'Delete':
      case 'Backspace':
        event.preventDefault();
        focusAfter.current = 'stage';
        dispatch({ type: 'delete', ids });
        return;
      case 'g':
      case 'G':
        event.preventDefault();
        dispatch({ type: 'group', ids });
        return;
      case 'u':
      case 'U':
        event.preventDefault();
        dispatch({ type: 'ungroup', ids });
        return;
      case 'Escape':
        if (selectedIds.length === 0) return;
        // Escape first drops the selection; only a second one reaches the form (which closes).
        event.preventDefault();
        event.stopPropagation();
        dispatch({ type: 'clear-selection' });
        return;
    }
  }

  function addMask() {
    focusAfter.current = state.nextId;
    dispatch({ type: 'add', box: { x: 0.4, y: 0.45, w: 0.2, h: 0.1 }, shape });
  }

  const width = natural?.width ?? 1;
  const height = natural?.height ?? 1;
  const handle = handleCssPx / cssPerPixel;
  const single = selectedIds.length === 1 ? state.masks.find((mask) => mask.id === selectedIds[0]) : undefined;
  const nothingSelected = selectedIds.length === 0;

  return (
    <div className="mask-editor">
      <div className="mask-editor__tools">
        <RadioChoice
          legend={occlusionMessages.newShapeLegend}
          options={(['rect', 'ellipse'] as const).map((value) => ({ value, label: shapeNames[value] }))}
          value={shape}
          onValue={setShape}
        />
        <div className="mask-editor__buttons">
          <Button variant="secondary" small onClick={addMask}>
            {occlusionMessages.addMask}
          </Button>
          <Button
            variant="secondary"
            small
            disabled={selectedIds.length < 2}
            aria-keyshortcuts="G"
            onClick={() => dispatch({ type: 'group', ids: selectedIds })}
          >
            {occlusionMessages.groupMasks}
          </Button>
          <Button
            variant="secondary"
            small
            disabled={nothingSelected}
            aria-keyshortcuts="U"
            onClick={() => dispatch({ type: 'ungroup', ids: selectedIds })}
          >
            {occlusionMessages.ungroupMasks}
          </Button>
          <Button
            variant="danger-outline"
            small
            disabled={nothingSelected}
            aria-keyshortcuts="Delete"
            onClick={() => dispatch({ type: 'delete', ids: selectedIds })}
          >
            {occlusionMessages.deleteMasks}
          </Button>
        </div>
      </div>
      <div className="mask-editor__stage">
        <img
          src={imageUrl}
          alt=""
          draggable={false}
          onLoad={(event) =>
            setNatural({ width: event.currentTarget.naturalWidth || 1, height: event.currentTarget.naturalHeight || 1 })
          }
        />
        {/* biome-ignore lint/a11y/useSemanticElements: an SVG cannot be a fieldset; the group names the masks. */}
        <svg
          ref={svgRef}
          className="mask-editor__masks"
          viewBox={`0 0 ${width} ${height}`}
          preserveAspectRatio="none"
          role="group"
          aria-label={occlusionMessages.editorLabel}
          aria-describedby={hintId}
          tabIndex={-1}
          data-testid="mask-stage"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerEnd}
          onPointerCancel={onPointerEnd}
        >
          {state.masks.map((mask, index) => {
            const selected = selectedIds.includes(mask.id);
            const common = {
              'data-mask-id': mask.id,
              className: `mask-editor__mask${selected ? ' mask-editor__mask--selected' : ''}`,
              style: { fill: groupFill(mask.group) },
              role: 'button',
              tabIndex: 0,
              'aria-pressed': selected,
              'aria-label': fillMessage(occlusionMessages.maskLabel, { n: index + 1, group: mask.group }),
              vectorEffect: 'non-scaling-stroke' as const,
              onKeyDown: (event: KeyboardEvent<SVGElement>) => onMaskKeyDown(event, mask.id),
            };
            return mask.shape === 'ellipse' ? (
              <ellipse
                key={mask.id}
                {...common}
                cx={(mask.x + mask.w / 2) * width}
                cy={(mask.y + mask.h / 2) * height}
                rx={(mask.w / 2) * width}
                ry={(mask.h / 2) * height}
              />
            ) : (
              <rect
                key={mask.id}
                {...common}
                x={mask.x * width}
                y={mask.y * height}
                width={mask.w * width}
                height={mask.h * height}
              />
            );
          })}
          {/* Drawn for the pointer and the eye only: the masks' labels and the keyboard say the same. */}
          {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: a plain SVG group, never focusable. */}
          <g aria-hidden="true">
            {state.masks.map((mask) => (
              <text
                key={mask.id}
                className="mask-editor__group"
                x={(mask.x + mask.w / 2) * width}
                y={(mask.y + mask.h / 2) * height}
                fontSize={Math.min(mask.h * height * 0.8, 16 / cssPerPixel)}
              >
                {mask.group}
              </text>
            ))}
            {single &&
              corners.map((corner) => (
                <rect
                  key={corner}
                  className={`mask-editor__handle mask-editor__handle--${corner}`}
                  data-corner={corner}
                  data-for={single.id}
                  x={(corner.endsWith('w') ? single.x : single.x + single.w) * width - handle / 2}
                  y={(corner.startsWith('n') ? single.y : single.y + single.h) * height - handle / 2}
                  width={handle}
                  height={handle}
                  vectorEffect="non-scaling-stroke"
                />
              ))}
            {drawing && (
              <rect
                className="mask-editor__drawing"
                x={drawing.x * width}
                y={drawing.y * height}
                width={drawing.w * width}
                height={drawing.h * height}
                vectorEffect="non-scaling-stroke"
              />
            )}
          </g>
        </svg>
      </div>
      <p id={hintId} className="muted mask-editor__hint">
        {occlusionMessages.editorHint}
      </p>
      <p className="mask-editor__count">
        {fillMessage(occlusionMessages.cardCount, { masks: state.masks.length, cards: cardCount(state.masks) })}
      </p>
      <div className="visually-hidden" aria-live="polite">
        {state.announcement}
      </div>
    </div>
  );
}
