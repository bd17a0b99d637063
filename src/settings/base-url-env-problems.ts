// The base-URL env vars' problems (src/ai/base-url-env.ts applies them), said once at start like a
// config file's.
import { OPENAI_API_VALUES } from "../ai/base-url-env.js";
import type { ConfigProblem } from "../config/problems.js";

type Env = Record<string, string | undefined>;

/** What is wrong with those variables, said once at start like a config file's problems. */
export function baseUrlEnvProblems(env: Env): ConfigProblem[] {
	const api = env.OPENAI_API?.trim();
	if (!api || OPENAI_API_VALUES[api.toLowerCase()]) return [];
	return [{ file: "environment", field: "OPENAI_API", problem: `must be "chat" or "responses", not "${api.slice(0, 40)}"` }];
}
