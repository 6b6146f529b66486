import { documents } from '../../bench/generator-quality/documents';
import { sourceText } from '../../bench/support/generator-corpus';
import { writeFileSync } from 'node:fs';
for (const spec of documents) {
  try { writeFileSync(`/tmp/ng/${spec.id}.txt`, sourceText(spec)); } catch (e) { console.log(spec.id, String(e)); }
}
