import type { AppConfig } from './app-config';
import { parseConfig } from './config.schema';

/**
 * The one place that reads process.env (docs/design.md "Style" rule 4). Everything else receives AppConfig by injection.
 * A test may pass its own environment.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return parseConfig(env);
}
