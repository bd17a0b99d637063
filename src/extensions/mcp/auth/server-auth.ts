// The sign-in side of one running HTTP server connection: the provider its transport uses (stored
// tokens, refreshed when they expire, never a browser), the fetch that records the server's refusals,
// and what a failure means: "needs sign-in" (no usable tokens) or "needs more scope" (a tool call
// refused with `insufficient_scope`, remembered so the next sign-in asks for that scope; after
// MAX_STEP_UP_TRIES sign-ins for the same scope it stops suggesting another one).
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpOAuthConfig } from "../config.js";
import { type Challenge, recordingFetch } from "./challenge.js";
import { type NeedsSignIn, RudderOAuthProvider } from "./oauth-provider.js";
import { MAX_STEP_UP_TRIES } from "./sign-in.js";
import type { McpAuthStore } from "./token-store.js";

export type AuthFailure =
	| { kind: "needs-sign-in" }
	| { kind: "step-up"; scope: string; exhausted: boolean }
	/** The server refused the token the sign-in gave (401 again right after it). */
	| { kind: "refused" };

const isNeedsSignIn = (error: unknown): error is NeedsSignIn => error instanceof Error && error.name === "NeedsSignIn";

export class ServerAuth {
	readonly provider: RudderOAuthProvider;
	readonly fetch: FetchLike;
	private readonly sink: { last?: Challenge } = {};

	constructor(
		private readonly target: { name: string; url: string; oauth?: McpOAuthConfig },
		private readonly store: McpAuthStore,
	) {
		this.provider = new RudderOAuthProvider(target, store, { kind: "connect" });
		this.fetch = recordingFetch(this.sink);
	}

	/** What `error` (from connecting or a call) says about signing in; undefined when it is not about that. */
	explain(error: unknown): AuthFailure | undefined {
		const challenge = this.sink.last;
		this.sink.last = undefined;
		if (challenge?.status === 403 && challenge.error === "insufficient_scope") {
			const scope = challenge.scope ?? (isNeedsSignIn(error) ? error.scope : undefined) ?? "";
			return { kind: "step-up", scope, exhausted: this.rememberStepUp(scope, challenge.resourceMetadataUrl) };
		}
		if (isNeedsSignIn(error)) return { kind: "needs-sign-in" };
		if (challenge?.status === 401 && /401/.test(String((error as Error)?.message))) return { kind: "refused" };
		return undefined;
	}

	/** Stores the step-up for the next sign-in; true when sign-ins for this scope are used up. */
	private rememberStepUp(scope: string, resourceMetadataUrl?: string): boolean {
		const before = this.store.get(this.target.name, this.target.url)?.stepUp;
		const tries = before?.scope === scope ? before.tries : 0;
		this.store.update(this.target.name, this.target.url, (entry) => ({ ...entry, stepUp: { scope, resourceMetadataUrl, tries } }));
		return tries >= MAX_STEP_UP_TRIES;
	}
}
