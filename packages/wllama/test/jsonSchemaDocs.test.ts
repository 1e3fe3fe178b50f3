/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { JSON_SCHEMA_KEYWORDS, checkJsonSchema } from '@inkling/scheduler/engine';

const doc = readFileSync(new URL('../../../docs/json-schema.md', import.meta.url), 'utf8');

/** The table's rows: keywords (a row may name several) and the engines' cells. */
const rows = doc
  .split('\n')
  .filter((line) => line.startsWith('| `'))
  .map((line) => {
    const [keywords = '', ...cells] = line.split('|').slice(1, -1);
    return { keywords: [...keywords.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string), cells: cells.map((c) => c.trim()) };
  });

it('docs/json-schema.md lists exactly the keywords checkJsonSchema accepts, each with every engine', () => {
  const documented = rows.flatMap((row) => row.keywords);
  expect(documented.toSorted()).toEqual(JSON_SCHEMA_KEYWORDS.toSorted());
  for (const row of rows) expect({ row: row.keywords, engines: row.cells.length }).toEqual({ row: row.keywords, engines: 4 });
  for (const keyword of JSON_SCHEMA_KEYWORDS) {
    // Each keyword it documents is one checkJsonSchema takes (a wrong value may be refused, an unknown keyword is).
    const problem = checkJsonSchema(JSON.parse(`{"${keyword}": null}`));
    expect({ keyword, known: !problem?.message.includes('not in the JSON Schema subset') }).toEqual({ keyword, known: true });
  }
  expect(checkJsonSchema({ multipleOf: 2 })?.message).toContain('not in the JSON Schema subset every engine accepts');
});

it('says where a keyword is only validated after: fractional bounds on wllama, and not "every engine enforces"', () => {
  for (const bound of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    const wllama = rows.find((row) => row.keywords.includes(bound))?.cells[0];
    expect({ bound, wllama }).toEqual({ bound, wllama: 'generation on `integer`; after on `number`' });
  }
  expect(doc).not.toMatch(/every engine (can )?enforce/);
});
