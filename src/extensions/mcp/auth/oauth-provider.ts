// Rudder's OAuthClientProvider for one MCP server: the SDK's `auth()` does the protocol (RFC 9728 and
// RFC 8414/OpenID discovery with the spec's fallbacks, dynamic registration, client ID metadata
// documents, PKCE S256, the resource indicator and its check against the server URL, scope choice,
// the token endpoint's auth method, refresh); this says where its state lives and what a redirect means.
//
// Two modes. `connect` (every start of the server): stored tokens are used and refreshed, but a flow
// that would need the browser stops with NeedsSignIn, so the server shows "needs sign-in" instead of a
// browser opening by surprise. `login` (`/mcp login`, `rudder mcp login`): stored tokens are ignored so
// a fresh authorization is asked for, the browser is sent to the authorization URL, and the result is
// stored.
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpOAuthConfig } from "../config.js";
import type { McpAuthStore } from "./token-store.js";

/** The server needs the user to sign in (or to sign in again with more scope). */
export class NeedsSignIn extends Error {
	constructor(
		readonly server: string,
		/** The scope the authorization would have asked for. */
		readonly scope?: string,
	) {
		super(`MCP server "${server}" needs sign-in`);
		this.name = "NeedsSignIn";
	}
}

/** Two authorization server URLs name the same server (parsed; one trailing slash aside). */
function sameServer(a: string, b: string): boolean {
	const norm = (u: string) => {
		try {
			return new URL(u).href.replace(/\/$/, "");
		} catch {
			return u.replace(/\/$/, "");
		}
	};
	return norm(a) === norm(b);
}

/** Used as the redirect URL in connect mode, where no redirect is ever followed. */
const UNUSED_REDIRECT = "http://127.0.0.1/callback";

export interface ProviderTarget {
	name: string;
	url: string;
	oauth?: McpOAuthConfig;
}

export type ProviderMode = { kind: "connect" } | { kind: "login"; redirectUrl: string; state: string; onRedirect(url: URL): Promise<void> };

export class RudderOAuthProvider implements OAuthClientProvider {
	private verifier?: string;
	private discovery?: OAuthDiscoveryState;
	/** In login mode: the tokens this sign-in obtained (stored ones are not used). */
	private fresh?: OAuthTokens;
	/** Whether this provider sent the user to an authorization page. */
	redirected = false;

	constructor(
		private readonly target: ProviderTarget,
		private readonly store: McpAuthStore,
		private readonly mode: ProviderMode,
	) {}

	get redirectUrl(): string {
		if (this.mode.kind === "login") return this.mode.redirectUrl;
		const stored = this.storedClient();
		const registered = stored && "redirect_uris" in stored ? stored.redirect_uris[0] : undefined;
		return registered ?? UNUSED_REDIRECT;
	}

	get clientMetadataUrl(): string | undefined {
		return this.target.oauth?.clientMetadataUrl;
	}

	get clientMetadata(): OAuthClientMetadata {
		return {
			client_name: "Rudder",
			redirect_uris: [this.redirectUrl],
			grant_types: ["authorization_code", "refresh_token"],
			response_types: ["code"],
			...(this.target.oauth?.scope ? { scope: this.target.oauth.scope } : {}),
		};
	}

	state(): string {
		if (this.mode.kind !== "login") throw new NeedsSignIn(this.target.name);
		return this.mode.state;
	}

	private storedClient(): OAuthClientInformationMixed | undefined {
		return this.store.get(this.target.name, this.target.url)?.client;
	}

	clientInformation(): OAuthClientInformationMixed | undefined {
		const oauth = this.target.oauth;
		if (oauth?.clientId) return { client_id: oauth.clientId, ...(oauth.clientSecret ? { client_secret: oauth.clientSecret } : {}) };
		const stored = this.storedClient();
		if (this.mode.kind === "connect") {
			// Registering a client is the first step of a sign-in: not done behind the user's back, also
			// not when the server now names another authorization server than the one the client is from.
			const server = this.discovery?.authorizationServerUrl;
			if (!stored || (stored.issuer && server && !sameServer(stored.issuer, server))) throw new NeedsSignIn(this.target.name);
			return stored;
		}
		// A client registered for another redirect port is registered again for this one.
		if (stored && "redirect_uris" in stored && !stored.redirect_uris.includes(this.mode.redirectUrl)) return undefined;
		return stored;
	}

	saveClientInformation(client: OAuthClientInformationMixed): void {
		// Pre-registered credentials live in the configuration, not here.
		if (this.target.oauth?.clientId) return;
		this.store.update(this.target.name, this.target.url, (entry) => ({ ...entry, client }));
	}

	tokens(): OAuthTokens | undefined {
		if (this.mode.kind === "login") return this.fresh;
		return this.store.get(this.target.name, this.target.url)?.tokens;
	}

	saveTokens(tokens: OAuthTokens): void {
		if (this.mode.kind === "login") this.fresh = tokens;
		// A pending step-up stays: its count of sign-ins is the retry limit, and its scope is asked for again.
		this.store.update(this.target.name, this.target.url, (entry) => ({ ...entry, tokens }));
	}

	async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
		if (this.mode.kind !== "login") throw new NeedsSignIn(this.target.name, authorizationUrl.searchParams.get("scope") ?? undefined);
		// One browser page per sign-in: a second 401 meanwhile (the transport's event stream) opens none.
		if (this.redirected) return;
		this.redirected = true;
		await this.mode.onRedirect(authorizationUrl);
	}

	saveCodeVerifier(codeVerifier: string): void {
		// The page already open was made with the first verifier; its code is exchanged with that one.
		if (this.redirected) return;
		this.verifier = codeVerifier;
	}

	codeVerifier(): string {
		if (!this.verifier) throw new Error("no sign-in is in progress");
		return this.verifier;
	}

	saveDiscoveryState(state: OAuthDiscoveryState): void {
		this.discovery = state;
	}

	discoveryState(): OAuthDiscoveryState | undefined {
		return this.discovery;
	}

	invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
		if (scope === "verifier" || scope === "all") this.verifier = undefined;
		if (scope === "discovery" || scope === "all") this.discovery = undefined;
		if (scope === "tokens" || scope === "all") this.fresh = undefined;
		if (scope === "verifier" || scope === "discovery") return;
		this.store.update(this.target.name, this.target.url, (entry) => ({
			...entry,
			...(scope === "all" || scope === "client" ? { client: undefined } : {}),
			...(scope === "all" || scope === "tokens" ? { tokens: undefined } : {}),
		}));
	}
}
