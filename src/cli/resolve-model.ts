// Which model a run uses. Order: `--model` (with `--provider` as its prefix), `--provider` alone, the
// settings default, the first model with a key, a discovered local server, and — interactive only —
// the offline demo. Non-interactive runs with nothing usable fail with one line saying how to set up.

import { DEMO_PROVIDER, keyEnvVarsText } from "../ai/constants.js";
import type { DiscoverLocalOptions, LocalProvider } from "../ai/model-registry.js";
import type { Model } from "../ai/types.js";

/** The part of `ModelRegistry` the choice needs. */
export interface ModelCatalog {
	getAll(): Model[];
	/** Models the user can pick (have a key, or are local). */
	getAvailable(): Model[];
	find(spec: string): Model | undefined;
	discoverLocal(): Promise<Model[]>;
	/** Why a provider's models may be missing (its config failed), one line; undefined when nothing is known. */
	problemFor?(provider: string): string | undefined;
}

export interface ModelRequest {
	/** `--model`: `provider/id`, an id, or a pattern. */
	model?: string;
	/** `--provider`. */
	provider?: string;
	/** The settings default, `provider/id`. */
	defaultModel?: string;
	/** Only the interactive mode may fall back to the demo. */
	interactive: boolean;
	/** Registers the offline demo provider and returns its model; loaded only when needed. */
	demo: () => Promise<Model>;
}

export type ModelChoice =
	| { ok: true; model: Model /** Said to the user at start-up (e.g. "using the offline demo"). */; notice?: string }
	| { ok: false; exitCode: number; message: string };

export const NO_MODEL_MESSAGE =
	`no model available: set an API key (${keyEnvVarsText()}), ` +
	"or start an OpenAI-compatible server on 127.0.0.1 (Ollama, llama.cpp, LM Studio, vLLM), or pass --provider with --api-key";

export async function resolveModel(catalog: ModelCatalog, request: ModelRequest): Promise<ModelChoice> {
	if (request.model) return findExplicit(catalog, request.model, request.provider, request.demo);
	if (request.provider) return firstOfProvider(catalog, request.provider);

	if (request.defaultModel) {
		const preferred = catalog.find(request.defaultModel);
		if (preferred && catalog.getAvailable().includes(preferred)) return { ok: true, model: preferred };
	}
	const available = catalog.getAvailable()[0];
	if (available) return { ok: true, model: available };

	const local = (await catalog.discoverLocal())[0];
	if (local) return { ok: true, model: local };

	// The app's first-start panel says how to set a model up; no start-up notice repeats it.
	if (request.interactive) return { ok: true, model: await request.demo() };
	return { ok: false, exitCode: 2, message: NO_MODEL_MESSAGE };
}

async function findExplicit(
	catalog: ModelCatalog,
	spec: string,
	provider: string | undefined,
	demo: ModelRequest["demo"],
): Promise<ModelChoice> {
	const full = provider && !spec.includes("/") ? `${provider}/${spec}` : spec;
	// The offline demo, listed by --list-models, is there to be asked for in any mode.
	if (full === `${DEMO_PROVIDER}/demo`) return { ok: true, model: await demo() };
	// Local servers' models are known only after discovery, which costs a few connection attempts.
	const model = catalog.find(full) ?? ((await catalog.discoverLocal()).length > 0 ? catalog.find(full) : undefined);
	if (model) return { ok: true, model };
	const problem = catalog.problemFor?.(full.includes("/") ? full.slice(0, full.indexOf("/")) : "");
	if (problem) return { ok: false, exitCode: 2, message: `unknown model "${full}": ${problem}` };
	return { ok: false, exitCode: 2, message: `unknown model "${full}" (see rudder --list-models)` };
}

async function firstOfProvider(catalog: ModelCatalog, provider: string): Promise<ModelChoice> {
	const ofProvider = (models: Model[]) => models.filter((m) => m.provider === provider);
	const known = ofProvider(catalog.getAvailable())[0] ?? ofProvider(catalog.getAll())[0];
	const model = known ?? ofProvider(await catalog.discoverLocal())[0];
	if (model) return { ok: true, model };
	const problem = catalog.problemFor?.(provider);
	if (problem) return { ok: false, exitCode: 2, message: `unknown provider "${provider}": ${problem}` };
	return { ok: false, exitCode: 2, message: `unknown provider "${provider}" (see rudder --list-models)` };
}

const LOCAL_KINDS: readonly LocalProvider[] = ["ollama", "llamacpp", "lmstudio", "vllm"];

/**
 * Reads `RUDDER_DISCOVERY_PORTS`: unset probes the well-known ports; empty turns discovery off (tests,
 * CI); `ollama=11500,vllm=9000` moves those servers' ports. Returns undefined when discovery is off;
 * throws one line on a malformed value.
 */
export function discoveryOptions(value: string | undefined): DiscoverLocalOptions | undefined {
	if (value === undefined) return {};
	if (value.trim() === "") return undefined;
	const ports: DiscoverLocalOptions["ports"] = {};
	for (const item of value.split(",")) {
		const [kind, port] = item.split("=").map((s) => s.trim());
		const number = Number(port);
		if (!LOCAL_KINDS.includes(kind as LocalProvider) || !Number.isInteger(number) || number <= 0 || number > 65535) {
			throw new Error(`RUDDER_DISCOVERY_PORTS: "${item.trim()}" is not <${LOCAL_KINDS.join("|")}>=<port>`);
		}
		ports[kind as LocalProvider] = number;
	}
	return { ports };
}
