// A protected MCP server and its authorization server on 127.0.0.1, built with the SDK's server-side
// auth helpers (mcpAuthRouter, mcpAuthMetadataRouter, requireBearerAuth) and an OAuthServerProvider
// that keeps codes and tokens in memory and auto-approves every authorization. Each knob is one of the
// variants the client must handle: where the metadata is found, whether registration is open, a
// pre-registered client, a client ID metadata document, a step-up scope for tool calls, short-lived
// tokens with refresh, and a protected-resource document naming another resource.
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import { createOAuthMetadata, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Response } from "express";
import express from "express";

export interface WorldOptions {
	/** Where the client finds the protected-resource metadata: only from WWW-Authenticate, or only at the well-known path. */
	prm?: "www-authenticate" | "well-known";
	/** Authorization server metadata served only as OpenID configuration. */
	oidc?: boolean;
	/** Dynamic registration open (default true). */
	registration?: boolean;
	preRegistered?: { clientId: string; clientSecret: string };
	/** The AS accepts URL client IDs (a client ID metadata document) for this URL. */
	cimdUrl?: string;
	/** Tool calls need this scope on top of the one listing needs (`basic`). */
	callScope?: string;
	/** Access tokens live this long (seconds); refresh tokens are issued. Default 3600, no refresh. */
	tokenSeconds?: number;
	refresh?: boolean;
	/** The authorization server grants only these of the scopes asked for (default: all). */
	grants?: string[];
	/** The protected-resource document names this resource instead of the server's URL. */
	prmResource?: string;
}

export interface WorldLog {
	authorizations: { clientId: string; scope: string; resource?: string; redirectUri: string }[];
	tokenGrants: { grant: "authorization_code" | "refresh_token"; clientId: string; resource?: string }[];
	registrations: number;
	/** Bearer tokens the MCP server was sent. */
	bearerTokens: string[];
}

export interface OAuthWorld {
	mcpUrl: string;
	authUrl: string;
	log: WorldLog;
	/** Makes every issued access token expire now. */
	expireTokens(): void;
	/** From now on the protected-resource document names this authorization server. */
	pointTo(authorizationServer: string): void;
	close(): Promise<void>;
}

interface Grant {
	clientId: string;
	scopes: string[];
	resource?: URL;
	expiresAt: number;
}

class MemoryAuthProvider implements OAuthServerProvider {
	readonly clients = new Map<string, OAuthClientInformationFull>();
	readonly codes = new Map<string, { client: OAuthClientInformationFull; params: AuthorizationParams }>();
	readonly tokens = new Map<string, Grant>();
	readonly refreshTokens = new Map<string, Grant>();

	constructor(
		private readonly options: WorldOptions,
		private readonly log: WorldLog,
	) {}

	get clientsStore() {
		const { clients, options, log } = this;
		return {
			getClient: (id: string): OAuthClientInformationFull | undefined => {
				if (options.cimdUrl && id === options.cimdUrl)
					// As if fetched from the URL: a public client with a loopback redirect.
					return { client_id: id, redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none" };
				return clients.get(id);
			},
			...(options.registration === false
				? {}
				: {
						registerClient: (client: Omit<OAuthClientInformationFull, "client_id" | "client_id_issued_at">) => {
							log.registrations++;
							const full = { ...client, client_id: `client-${randomUUID()}`, client_id_issued_at: Math.floor(Date.now() / 1000) };
							clients.set(full.client_id, full);
							return full;
						},
					}),
		};
	}

	async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
		this.log.authorizations.push({
			clientId: client.client_id,
			scope: (params.scopes ?? []).join(" "),
			resource: params.resource?.href,
			redirectUri: params.redirectUri,
		});
		const code = randomUUID();
		this.codes.set(code, { client, params });
		const target = new URL(params.redirectUri);
		target.searchParams.set("code", code);
		if (params.state !== undefined) target.searchParams.set("state", params.state);
		res.redirect(target.toString());
	}

	async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
		const entry = this.codes.get(code);
		if (!entry) throw new Error("unknown code");
		return entry.params.codeChallenge;
	}

	private issue(clientId: string, scopes: string[], resource?: URL): OAuthTokens {
		const seconds = this.options.tokenSeconds ?? 3600;
		const token = `at-${randomUUID()}`;
		this.tokens.set(token, { clientId, scopes, resource, expiresAt: Date.now() + seconds * 1000 });
		const refresh = this.options.refresh ? `rt-${randomUUID()}` : undefined;
		if (refresh) this.refreshTokens.set(refresh, { clientId, scopes, resource, expiresAt: Number.MAX_SAFE_INTEGER });
		return {
			access_token: token,
			token_type: "bearer",
			expires_in: seconds,
			scope: scopes.join(" "),
			...(refresh ? { refresh_token: refresh } : {}),
		};
	}

	async exchangeAuthorizationCode(
		client: OAuthClientInformationFull,
		code: string,
		_verifier?: string,
		_redirect?: string,
		resource?: URL,
	) {
		const entry = this.codes.get(code);
		if (!entry || entry.client.client_id !== client.client_id) throw new Error("invalid code");
		this.codes.delete(code);
		this.log.tokenGrants.push({ grant: "authorization_code", clientId: client.client_id, resource: resource?.href });
		const asked = entry.params.scopes ?? [];
		const grants = this.options.grants;
		return this.issue(client.client_id, grants ? asked.filter((s) => grants.includes(s)) : asked, entry.params.resource);
	}

	async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, _scopes?: string[], resource?: URL) {
		const grant = this.refreshTokens.get(refreshToken);
		if (!grant || grant.clientId !== client.client_id) throw new Error("invalid refresh token");
		this.log.tokenGrants.push({ grant: "refresh_token", clientId: client.client_id, resource: resource?.href });
		return this.issue(client.client_id, grant.scopes, grant.resource);
	}

	async verifyAccessToken(token: string): Promise<AuthInfo> {
		const grant = this.tokens.get(token);
		if (!grant) throw new Error("unknown token");
		return {
			token,
			clientId: grant.clientId,
			scopes: grant.scopes,
			expiresAt: Math.floor(grant.expiresAt / 1000),
			resource: grant.resource,
		};
	}
}

async function listen(app: express.Express): Promise<{ server: Server; url: string }> {
	return await new Promise((resolve) => {
		const server = app.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
	});
}

function mcpServer(): McpServer {
	const server = new McpServer({ name: "protected", version: "1.0.0" });
	server.registerTool("whoami", { description: "Says who is calling" }, async (extra) => ({
		content: [{ type: "text", text: `hello ${extra.authInfo?.clientId ?? "nobody"}` }],
	}));
	return server;
}

export async function startOAuthWorld(options: WorldOptions = {}): Promise<OAuthWorld> {
	const log: WorldLog = { authorizations: [], tokenGrants: [], registrations: 0, bearerTokens: [] };
	const provider = new MemoryAuthProvider(options, log);
	if (options.preRegistered)
		provider.clients.set(options.preRegistered.clientId, {
			client_id: options.preRegistered.clientId,
			client_secret: options.preRegistered.clientSecret,
			redirect_uris: ["http://127.0.0.1/callback"],
		});

	// The resource server first: the authorization server's metadata names it.
	const mcpApp = express();
	mcpApp.use(express.json());
	const mcp = await listen(mcpApp);
	const mcpUrl = `${mcp.url}/mcp`;

	const authApp = express();
	const auth = await listen(authApp);
	const issuerUrl = new URL(auth.url);
	const metadata = createOAuthMetadata({ provider, issuerUrl, scopesSupported: ["basic", "write"] });
	if (options.cimdUrl) (metadata as Record<string, unknown>).client_id_metadata_document_supported = true;
	if (options.oidc) {
		authApp.get("/.well-known/oauth-authorization-server", (_req, res) => void res.status(404).end());
		authApp.get(
			"/.well-known/openid-configuration",
			(_req, res) =>
				void res.json({
					...metadata,
					jwks_uri: `${auth.url}/jwks`,
					subject_types_supported: ["public"],
					id_token_signing_alg_values_supported: ["RS256"],
				}),
		);
	} else if (options.cimdUrl) {
		authApp.get("/.well-known/oauth-authorization-server", (_req, res) => void res.json(metadata));
	}
	authApp.use(mcpAuthRouter({ provider, issuerUrl, scopesSupported: ["basic", "write"] }));

	const prmPath = options.prm === "www-authenticate" ? "/meta/resource.json" : "/.well-known/oauth-protected-resource/mcp";
	let authorizationServer = auth.url;
	mcpApp.get(
		prmPath,
		(_req, res) =>
			void res.json({
				resource: options.prmResource ?? mcpUrl,
				authorization_servers: [authorizationServer],
				scopes_supported: ["basic", "write"],
			}),
	);
	const bearer = requireBearerAuth({
		verifier: provider,
		requiredScopes: ["basic"],
		...(options.prm === "www-authenticate" ? { resourceMetadataUrl: `${mcp.url}${prmPath}` } : {}),
	});
	mcpApp.post("/mcp", bearer, async (req, res) => {
		log.bearerTokens.push(req.auth?.token ?? "");
		const method = (req.body as { method?: string }).method;
		if (options.callScope && method === "tools/call" && !req.auth?.scopes.includes(options.callScope)) {
			res
				.status(403)
				.set(
					"WWW-Authenticate",
					`Bearer error="insufficient_scope", scope="basic ${options.callScope}", resource_metadata="${mcp.url}${prmPath}"`,
				)
				.json({ error: "insufficient_scope" });
			return;
		}
		const server = mcpServer();
		const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
		res.on("close", () => {
			void transport.close();
			void server.close();
		});
		await server.connect(transport);
		await transport.handleRequest(req, res, req.body);
	});
	mcpApp.get("/mcp", (_req, res) => void res.status(405).end());

	const close = (server: Server) =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	return {
		mcpUrl,
		authUrl: auth.url,
		log,
		pointTo: (url) => {
			authorizationServer = url;
		},
		expireTokens: () => {
			for (const grant of provider.tokens.values()) grant.expiresAt = Date.now() - 1000;
		},
		close: async () => {
			await Promise.all([close(mcp.server), close(auth.server)]);
		},
	};
}
