// The model registry of the user's config folder: src/ai's registry over the providers of
// `<configDir>/models.json` and the keys of `<configDir>/auth.json`, with what is wrong with either
// file, and `/login`'s key store.
import { join } from "node:path";
import { ModelRegistry } from "../ai/model-registry.js";
import { BUILTIN_MODELS } from "../ai/models.js";
import type { Provider } from "../ai/types.js";
import { CONFIG_FILES, configDir as defaultConfigDir } from "../config/paths.js";
import { type ConfigProblem, formatConfigProblem } from "../config/problems.js";
import { readKeys, storeKey } from "./auth-file.js";
import { baseUrlEnvProblems } from "./base-url-env-problems.js";
import { readModelsFile } from "./models-file.js";

type Env = Record<string, string | undefined>;

export interface UserModelsOptions {
	/** Folder holding `models.json` and `auth.json`. Default: `configDir()` of src/config/paths.ts. */
	configDir?: string;
	/** Where keys, base-URL overrides and `apiKey` env names are read. Default: `process.env`. */
	env?: Env;
}

/** Providers of the built-in list: a broken models.json does not explain their missing models. */
const BUILTIN_PROVIDERS: ReadonlySet<string> = new Set(BUILTIN_MODELS.map((m) => m.provider));

/**
 * The constructor never throws: a broken models.json or auth.json leaves the built-in models (and
 * every provider that checked out) usable; each problem is listed in `problems` (file, field, what is
 * wrong) for the modes to show at start, the first also as `loadError`. Call `load()` to re-read the
 * files; it throws the first problem.
 */
export class UserModels extends ModelRegistry {
	readonly configDir: string;
	/** The first of `problems`, as an Error. */
	loadError: Error | undefined;
	/** What is wrong with models.json and auth.json, as of the last `load()`. */
	problems: ConfigProblem[] = [];
	/** The keys of auth.json, refilled by `load()`; the registry's `keyFor` reads it, so it sees the latest. */
	private readonly credentials: Map<string, string>;
	/** The environment OPENAI_BASE_URL / OPENAI_API are checked in. */
	private readonly userEnv: Env;

	constructor(options: UserModelsOptions = {}) {
		const env = options.env ?? process.env;
		const credentials = new Map<string, string>();
		super({ env, keyFor: (provider) => credentials.get(provider) });
		this.credentials = credentials;
		this.userEnv = env;
		this.configDir = options.configDir ?? defaultConfigDir(env);
		try {
			this.load();
		} catch {
			// Kept in loadError; built-ins stay usable.
		}
	}

	get modelsFile(): string {
		return join(this.configDir, CONFIG_FILES.models);
	}

	get authFile(): string {
		return join(this.configDir, CONFIG_FILES.auth);
	}

	/**
	 * Re-reads models.json and auth.json. Every provider and key that checks out is applied; the rest
	 * are listed in `problems`, and the first is thrown.
	 */
	load(): void {
		const auth = readKeys(this.authFile);
		this.credentials.clear();
		for (const [provider, key] of Object.entries(auth.keys)) this.credentials.set(provider, key);
		const models = readModelsFile(this.modelsFile);
		this.problems = [...models.problems, ...auth.problems, ...baseUrlEnvProblems(this.userEnv)];
		this.loadError = this.problems[0] ? new Error(formatConfigProblem(this.problems[0])) : undefined;
		this.configure({ providers: models.providers, keyFor: (provider) => this.credentials.get(provider) });
		if (this.loadError) throw this.loadError;
	}

	/** Why a provider's models are missing: its own models.json problem, else one of models.json as a whole. */
	problemFor(provider: string): ConfigProblem | undefined {
		const own = this.problems.find((p) => p.provider === provider);
		if (own) return own;
		const wholeModels = this.problems.find((p) => p.file === this.modelsFile && p.provider === undefined);
		return wholeModels && !BUILTIN_PROVIDERS.has(provider) ? wholeModels : undefined;
	}

	/** A provider that needs a key and has none while auth.json could not be read: requests would go out unauthorised. */
	keyProblem(provider: string): ConfigProblem | undefined {
		if (this.isAvailable({ provider })) return undefined;
		return this.problems.find((p) => p.file === this.authFile && (p.provider === undefined || p.provider === provider));
	}

	/**
	 * Stores a key in auth.json (mode 0600, folder created). Refuses to overwrite an auth.json that does
	 * not parse, so a hand-edited file is never lost.
	 */
	setApiKey(provider: Provider, key: string): void {
		const stored = storeKey(this.authFile, provider, key);
		this.credentials.set(stored.provider, stored.key);
	}
}
