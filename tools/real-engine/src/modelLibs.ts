import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LIBS, LIBS_FOLDER } from './setup.js';

/**
 * The folder named by INKLING_MODEL_LIBS (relative to where the command was
 * typed), checked to hold the chat model library; exits with what to fetch
 * and where when it does not.
 *
 * @example
 * const libs = requireModelLibs('verify:real-engine');
 */
export function requireModelLibs(command: string, extra = ''): string {
  // pnpm runs the tool in tools/real-engine: INIT_CWD is where the command was typed.
  const given = process.env.INKLING_MODEL_LIBS;
  const libs = given ? resolve(process.env.INIT_CWD ?? process.cwd(), given) : undefined;
  if (libs && existsSync(join(libs, LIBS.chat))) return libs;
  console.error(
    [
      `${command} needs the WebLLM model library ${LIBS.chat}`,
      `in the folder named by INKLING_MODEL_LIBS${libs ? ` (now "${libs}", which lacks it)` : ' (not set)'}.`,
      `Get it from the public repository mlc-ai/binary-mlc-llm-libs, folder ${LIBS_FOLDER}/ (it loads with @mlc-ai/web-llm 0.2.79,`,
      `which this tool pins). Add ${LIBS.embedding} from the same folder to check embeddings too.`,
      'Keep libraries out of git, e.g. in .real-engine/libs/, then run:',
      `  INKLING_MODEL_LIBS=.real-engine/libs pnpm verify:real-engine${extra}`,
    ].join('\n'),
  );
  process.exit(2);
}
