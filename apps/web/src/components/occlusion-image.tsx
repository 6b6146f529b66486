import { messages } from '@flashcards/shared/messages';
import type { OcclusionView } from '@flashcards/shared/notes';
import './occlusion-image.css';

/**
 * An occlusion card's image with its masks drawn over it. The masks are an SVG whose viewBox is the unit square
 * stretched over the image, so they stay on their labels at any width while the image keeps its own resolution.
 * Question: the target masks are covered (in hide_all every mask). Answer: the target is uncovered and outlined;
 * in hide_all the other masks stay covered.
 */
export function OcclusionImage({ occlusion, revealed }: { occlusion: OcclusionView; revealed: boolean }) {
  return (
    <figure className="occlusion-image">
      <img src={occlusion.image_url} alt={revealed ? messages.occlusionImageAnswerAlt : messages.occlusionImageAlt} />
      <svg viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true" focusable="false">
        {occlusion.masks.map((mask, index) => {
          const covered = revealed
            ? !mask.target && occlusion.mode === 'hide_all'
            : mask.target || occlusion.mode === 'hide_all';
          if (!covered && !(revealed && mask.target)) return null;
          const className = covered
            ? `occlusion-image__mask${mask.target ? ' occlusion-image__mask--target' : ''}`
            : 'occlusion-image__reveal';
          const key = `${index}:${mask.x}:${mask.y}`;
          return mask.shape === 'ellipse' ? (
            <ellipse
              key={key}
              className={className}
              cx={mask.x + mask.w / 2}
              cy={mask.y + mask.h / 2}
              rx={mask.w / 2}
              ry={mask.h / 2}
              vectorEffect="non-scaling-stroke"
            />
          ) : (
            <rect
              key={key}
              className={className}
              x={mask.x}
              y={mask.y}
              width={mask.w}
              height={mask.h}
              vectorEffect="non-scaling-stroke"
            />
          );
        })}
      </svg>
    </figure>
  );
}
