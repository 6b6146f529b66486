import { generateOfflineCards } from './src/adapters/ai/offline/offline-generator';
import { readFileSync } from 'node:fs';
const text = process.argv[2] ? readFileSync(process.argv[2], 'utf8') : 'Photosynthesis is the process by which green plants use sunlight to make glucose from carbon dioxide and water. Chlorophyll is the green pigment that absorbs light energy. The Battle of Hastings was fought in 1066 between the Normans and the English.\n\nThe three domains of life are:\n- Bacteria\n- Archaea\n- Eukarya\n\nIf the membrane breaks, the cell dies within minutes.';
for (const style of ['basic', 'cloze', 'mixed'] as const) {
  const cards = generateOfflineCards(text, 50, style);
  console.log(`== ${style}: ${cards.length} cards, ${cards.filter((c) => c.cloze).length} cloze`);
  for (const c of cards.slice(0, 40)) console.log(c.cloze ? `  CLOZE ${JSON.stringify(c.cloze)}` : `  BASIC ${c.question} → ${c.answer}`);
}
