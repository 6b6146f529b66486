import './card-images.css';
import { fillMessage, messages } from '@flashcards/shared/messages';

/** A card's images (its `images` URLs), shown under the answer; nothing when it has none. */
export function CardImages({ images }: { images: readonly string[] | undefined }) {
  if (!images || images.length === 0) return null;
  return (
    <div className="card-images">
      {images.map((url, index) => (
        <img
          key={url}
          className="card-images__image"
          src={url}
          alt={fillMessage(messages.cardImageAlt, { number: index + 1 })}
          loading="lazy"
          decoding="async"
        />
      ))}
    </div>
  );
}
