// The provider keys a session uses: the one given for this run (`--api-key`) over the model registry's
// (auth.json, environment). The Agent asks here per request; the session file's redaction asks for the
// keys in use, so none is written to disk.
import type { Model } from "../ai/index.js";
import type { ConfigProblem } from "../config/problems.js";
import { processSecrets } from "../safety/secrets.js";

/** The part of `ModelRegistry` a session uses. */
export interface SessionModelRegistry {
	getAvailable(): Model[];
	find(spec: string): Model | undefined;
	getApiKey(provider: string): string | undefined;
	setApiKey(provider: string, key: string): void;
	/** Set when the provider needs a key and has none because auth.json could not be read. */
	keyProblem?(provider: string): ConfigProblem | undefined;
}

export class SessionKeys {
	constructor(
		private readonly registry: SessionModelRegistry | undefined,
		/** The key given for this run, for its model's provider. */
		private readonly override: { provider: string; key: string } | undefined,
	) {
		if (override) processSecrets.add(override.key);
	}

	readonly apiKeyFor = (provider: string): string | undefined => {
		if (this.override?.provider === provider) return this.override.key;
		return this.registry?.getApiKey(provider);
	};

	/** Why `provider` has no key, when auth.json could not be read. */
	keyProblem(provider: string): ConfigProblem | undefined {
		return this.registry?.keyProblem?.(provider);
	}

	/** `/login`: stores the key in the registry (auth.json). */
	login(provider: string, key: string): void {
		if (!this.registry) throw new Error("No model registry to store the key in");
		this.registry.setApiKey(provider, key);
	}

	/** The keys in use with `provider`'s model, for the session file's redaction. */
	secrets(provider: string | undefined): string[] {
		const keys = this.override ? [this.override.key] : [];
		const registryKey = provider ? this.registry?.getApiKey(provider) : undefined;
		if (registryKey) keys.push(registryKey);
		return keys;
	}
}
