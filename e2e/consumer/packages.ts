/**
 * The packages the consumer test packs and installs, by folder under
 * packages/. Adding a package is one line here.
 */
export const PACKAGES = ['scheduler', 'react', 'webllm', 'openai', 'wllama', 'shared-pool', 'browser-ai', 'ai-sdk'] as const;

/** What every consumer app installs from the registry, pinned. */
export const REGISTRY_DEPENDENCIES = {
  react: '19.3.1',
  'react-dom': '19.3.1',
  '@tanstack/react-query': '5.108.0',
  '@mlc-ai/web-llm': '0.2.86',
} as const;
