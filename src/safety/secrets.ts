// The secrets this process knows (provider keys from the environment, auth.json, `--api-key`, models.json
// keys and header values, keys stored by /login) and the one function that takes them out of text before
// it reaches a session file, an export, an error line, json/rpc output, the input history or a log.
// Every layer may import this; it imports nothing.

/** What a secret is replaced with. */
export const REDACTED = "[redacted]";

/** Shorter values are not treated as secrets: masking "local" or "1" everywhere would garble text. */
export const MIN_SECRET_LENGTH = 8;

export interface Redactor {
	/** Remembers a secret (trimmed; ignored when shorter than MIN_SECRET_LENGTH or undefined). */
	add(secret: string | undefined): void;
	/** `text` with every known secret (and its JSON-escaped form) replaced by REDACTED. */
	redact(text: string): string;
	/** How many distinct secrets are known. */
	readonly size: number;
	/** Length of the longest known secret (0 when none). */
	readonly longest: number;
	/**
	 * Where the longest end of `text` that could be the start of a known secret begins (`text.length`
	 * when none could): what a stream must hold back until the next chunk says. Costs O(secrets ×
	 * longest), whatever the length of `text`.
	 */
	heldFrom(text: string): number;
}

export function createRedactor(): Redactor {
	const known = new Set<string>();
	// Longest first, so a secret that contains another is replaced whole.
	let ordered: string[] = [];
	const remember = (value: string) => {
		if (known.has(value)) return;
		known.add(value);
		ordered = [...known].sort((a, b) => b.length - a.length);
	};
	return {
		add(secret) {
			const value = secret?.trim();
			if (!value || value.length < MIN_SECRET_LENGTH) return;
			remember(value);
			// Inside JSON text (session lines, rpc output) the secret appears escaped.
			const escaped = JSON.stringify(value).slice(1, -1);
			if (escaped !== value) remember(escaped);
		},
		redact(text) {
			let out = text;
			for (const secret of ordered) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
			return out;
		},
		get size() {
			return known.size;
		},
		get longest() {
			return ordered[0]?.length ?? 0;
		},
		heldFrom(text) {
			let from = text.length;
			for (const secret of ordered) {
				const first = secret.charCodeAt(0);
				// Only an end shorter than the secret can be its unfinished start.
				for (let i = Math.max(0, text.length - secret.length + 1); i < from; i++) {
					if (text.charCodeAt(i) === first && secret.startsWith(text.slice(i))) {
						from = i;
						break;
					}
				}
			}
			return from;
		},
	};
}

/** The process's own secrets: fed by the model registry, the CLI and the session; read by every writer. */
export const processSecrets: Redactor = createRedactor();

/** Prefixes of well-known key formats (OpenAI, Anthropic, GitHub, Slack, AWS, Google, GitLab, JWT). */
const KEY_PREFIX = /^(?:sk-|sk_|rk_|pk_|ghp_|gho_|ghs_|ghu_|github_pat_|xox[abposr]-|AKIA|ASIA|AIza|glpat-|eyJ)/;

/**
 * Whether a value looks like a key or token by its shape alone (a config's value whose name says
 * nothing): a known key prefix, or one unbroken run of 24+ characters mixing upper case, lower case
 * and digits. Paths, flags and sentences are not: they are what a person must see to judge them.
 */
export function looksLikeToken(value: string): boolean {
	const text = value.trim();
	if (text.length < MIN_SECRET_LENGTH || /\s/.test(text)) return false;
	if (KEY_PREFIX.test(text)) return true;
	return text.length >= 24 && /^[A-Za-z0-9_\-+/=.]+$/.test(text) && /[a-z]/.test(text) && /[A-Z]/.test(text) && /[0-9]/.test(text);
}

export function redactSecrets(text: string): string {
	return processSecrets.redact(text);
}

export interface ChunkRedactor {
	/** Redacted text that is safe to write now; a possible start of a secret is held back. */
	push(text: string): string;
	/** The rest, redacted, at the end of the stream. */
	end(): string;
}

/**
 * Redacts a stream that arrives in chunks (a command's output going to a log file, a model's streamed
 * text): a secret split across two chunks is still caught, because an end that could be the start of
 * a secret waits for the next chunk. Only that end waits (at most `longest - 1` characters), so text
 * without such an end is written at once, and each chunk costs the same however long the stream is.
 */
export function createChunkRedactor(redactor: Redactor = processSecrets): ChunkRedactor {
	let carry = "";
	return {
		push(text) {
			if (redactor.size === 0 && carry === "") return text;
			const redacted = redactor.redact(carry + text);
			const from = redactor.heldFrom(redacted);
			carry = redacted.slice(from);
			return redacted.slice(0, from);
		},
		end() {
			const rest = redactor.redact(carry);
			carry = "";
			return rest;
		},
	};
}
