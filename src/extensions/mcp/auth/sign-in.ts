// One sign-in to an MCP server (`/mcp login`, `rudder mcp login`): a loopback listener for the
// redirect, the browser sent to the authorization page (its URL also given to the caller to print),
// the code exchanged for tokens, all stored. The protocol is the SDK's `auth()`; where the server asks
// for sign-in is found by asking it (a connection whose 401 carries the scope and metadata URL), or,
// after a tool call was refused with `insufficient_scope`, taken from that refusal.
import { randomBytes } from "node:crypto";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpOAuthConfig } from "../config.js";
import { startCallbackListener } from "./callback-listener.js";
import { type Challenge, recordingFetch } from "./challenge.js";
import { RudderOAuthProvider } from "./oauth-provider.js";
import type { McpAuthStore } from "./token-store.js";

export interface SignInTarget {
	name: string;
	url: string;
	headers: Record<string, string>;
	oauth?: McpOAuthConfig;
}

export interface SignInOptions {
	store: McpAuthStore;
	/** Called with the authorization URL once the browser was asked to open it (`opened` false: it could not be). */
	onUrl(url: string, opened: boolean): void;
	openBrowser(url: string): Promise<boolean>;
	/** How long to wait for the browser's redirect. Default SIGN_IN_TIMEOUT_MS. */
	timeoutMs?: number;
	signal?: AbortSignal;
	fetch?: FetchLike;
}

export type SignInResult = "signed-in" | "not-needed";

export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** Sign-ins for the same scope after which a refused tool call no longer suggests signing in again. */
export const MAX_STEP_UP_TRIES = 2;

/** The 127.0.0.1 port a stored client was registered with, so it can be used again without registering. */
function registeredPort(store: McpAuthStore, target: SignInTarget): number | undefined {
	const client = store.get(target.name, target.url)?.client;
	const uri = client && "redirect_uris" in client ? client.redirect_uris[0] : undefined;
	if (!uri) return undefined;
	try {
		const url = new URL(uri);
		return url.hostname === "127.0.0.1" && url.port ? Number(url.port) : undefined;
	} catch {
		return undefined;
	}
}

async function listen(target: SignInTarget, options: SignInOptions, state: string) {
	const common = { state, timeoutMs: options.timeoutMs ?? SIGN_IN_TIMEOUT_MS, signal: options.signal };
	// A pre-registered client's redirect URI is fixed: its port or nothing.
	if (target.oauth?.callbackPort) return await startCallbackListener({ ...common, port: target.oauth.callbackPort });
	const port = registeredPort(options.store, target);
	if (port !== undefined) {
		// Taken meanwhile: a new port, and the client registers again for it.
		const again = await startCallbackListener({ ...common, port }).catch(() => undefined);
		if (again) return again;
	}
	return await startCallbackListener(common);
}

export async function signIn(target: SignInTarget, options: SignInOptions): Promise<SignInResult> {
	const [{ auth }, { Client }, { StreamableHTTPClientTransport }] = await Promise.all([
		import("@modelcontextprotocol/sdk/client/auth.js"),
		import("@modelcontextprotocol/sdk/client/index.js"),
		import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
	]);
	const state = randomBytes(32).toString("base64url");
	const listener = await listen(target, options, state);
	const sink: { last?: Challenge } = {};
	const fetchFn = recordingFetch(sink, options.fetch);
	const provider = new RudderOAuthProvider(target, options.store, {
		kind: "login",
		redirectUrl: listener.redirectUrl,
		state,
		onRedirect: async (url) => {
			const text = url.toString();
			options.onUrl(text, await options.openBrowser(text));
		},
	});
	const client = new Client({ name: "rudder", version: "0.1.0" }, { capabilities: {} });
	try {
		const stepUp = options.store.get(target.name, target.url)?.stepUp;
		let scope: string | undefined;
		let resourceMetadataUrl: URL | undefined;
		if (stepUp) {
			// The server refused a call for this scope: ask for it (the tokens' own scope is in it or not needed).
			scope = stepUp.scope;
			resourceMetadataUrl = stepUp.resourceMetadataUrl ? new URL(stepUp.resourceMetadataUrl) : undefined;
			options.store.update(target.name, target.url, (entry) => ({ ...entry, stepUp: { ...stepUp, tries: stepUp.tries + 1 } }));
			await auth(provider, { serverUrl: target.url, scope, resourceMetadataUrl, fetchFn });
		} else {
			const transport = new StreamableHTTPClientTransport(new URL(target.url), {
				requestInit: { headers: target.headers },
				authProvider: provider,
				fetch: fetchFn,
			});
			try {
				await client.connect(transport);
				await client.listTools();
			} catch (error) {
				if (!provider.redirected) throw error;
			}
			if (!provider.redirected) return "not-needed";
			scope = sink.last?.scope;
			resourceMetadataUrl = sink.last?.resourceMetadataUrl ? new URL(sink.last.resourceMetadataUrl) : undefined;
		}
		if (!provider.redirected) return "signed-in"; // the stored client and a refresh were enough
		const code = await listener.code;
		await auth(provider, { serverUrl: target.url, authorizationCode: code, scope, resourceMetadataUrl, fetchFn });
		return "signed-in";
	} finally {
		listener.close();
		await client.close().catch(() => undefined);
	}
}
