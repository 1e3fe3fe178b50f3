// The Web Worker each WebLLM engine runs in (one per engine, so tokens never
// stream on the page's thread). It opts into JSON-schema jobs on the lanes:
// xgrammar, a matcher per row (Vite bundles it as a chunk of this worker).
import { hostWebLLM } from '@inkling/webllm';
import { loadXGrammar } from '@inkling/webllm/xgrammar';
import { MLCEngine, prebuiltAppConfig } from '@mlc-ai/web-llm';

hostWebLLM(globalThis as never, { MLCEngine, prebuiltAppConfig }, { xgrammar: loadXGrammar });
