// What a sign-in leaves behind, per MCP server: its OAuth tokens, the client registered with its
// authorization server (dynamic registration or a client ID metadata document) and a pending step-up
// (the scope a tool call was refused for). One file, mode 0600, in the data folder, which the sandbox
// hides whole from commands. Entries are keyed by server name AND URL: a cloned repo's .mcp.json that
// reuses a name ("github") for another URL finds nothing stored, so it never gets another server's
// tokens. Every secret read or written goes to the process's redactor, so no error line, notice or
// session file can carry one.
import { statSync } from "node:fs";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { mcpOAuthFile } from "../../../config/paths.js";
import { processSecrets } from "../../../safety/secrets.js";
import { isObject, parseJsonObject, readIfExists, writeJsonAtomic } from "../../../settings/json-object.js";

type Env = Record<string, string | undefined>;

/** A scope the server asked for with `insufficient_scope`, waiting for the next sign-in. */
export interface StepUp {
	scope: string;
	resourceMetadataUrl?: string;
	/** Sign-ins made for this scope so far (the retry limit counts them). */
	tries: number;
}

export interface StoredServerAuth {
	name: string;
	url: string;
	tokens?: OAuthTokens;
	client?: OAuthClientInformationMixed;
	stepUp?: StepUp;
}

/** The key of a server: both its name and its URL must match. */
export const storeKey = (name: string, url: string): string => `${name} ${url}`;

function rememberSecrets(entry: StoredServerAuth): void {
	processSecrets.add(entry.tokens?.access_token);
	processSecrets.add(entry.tokens?.refresh_token);
	processSecrets.add(entry.tokens?.id_token);
	processSecrets.add(entry.client?.client_secret);
}

/**
 * The sign-in file. Read on every access (another rudder may have signed in meanwhile); a file that is
 * readable by others or does not parse is treated as empty and never overwritten by a partial view.
 */
export class McpAuthStore {
	readonly file: string;

	constructor(env: Env = process.env, file?: string) {
		this.file = file ?? mcpOAuthFile(env);
	}

	get(name: string, url: string): StoredServerAuth | undefined {
		const entry = this.readAll()[storeKey(name, url)];
		if (!entry || entry.name !== name || entry.url !== url) return undefined;
		rememberSecrets(entry);
		return entry;
	}

	/** Applies `change` to the server's entry (created when absent) and writes the file; undefined removes it. */
	update(name: string, url: string, change: (entry: StoredServerAuth) => StoredServerAuth | undefined): void {
		const all = this.readAll(true);
		const key = storeKey(name, url);
		const current = all[key] && all[key].name === name && all[key].url === url ? all[key] : { name, url };
		const next = change({ ...current });
		if (next) {
			rememberSecrets(next);
			all[key] = { ...next, name, url };
		} else delete all[key];
		writeJsonAtomic(this.file, { servers: all }, 0o600);
	}

	/** Forgets everything of this server; true when there was something. */
	remove(name: string, url: string): boolean {
		const had = this.get(name, url) !== undefined;
		if (had) this.update(name, url, () => undefined);
		return had;
	}

	private readAll(forWriting = false): Record<string, StoredServerAuth> {
		const text = readIfExists(this.file);
		if (text === undefined || !text.trim()) return {};
		if (process.platform !== "win32" && (statSync(this.file).mode & 0o077) !== 0) {
			if (forWriting) throw new Error(`${this.file} is readable by group or others; run: chmod 600 ${this.file}`);
			return {};
		}
		let data: Record<string, unknown>;
		try {
			data = parseJsonObject(text, this.file);
		} catch (error) {
			if (forWriting) throw error;
			return {};
		}
		const servers = data.servers;
		if (!isObject(servers)) return {};
		const out: Record<string, StoredServerAuth> = {};
		for (const [key, value] of Object.entries(servers)) {
			if (isObject(value) && typeof value.name === "string" && typeof value.url === "string") out[key] = value as StoredServerAuth;
		}
		return out;
	}
}
