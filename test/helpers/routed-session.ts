// A session (session-fixture.ts) over a scripted model on 127.0.0.1 that answers by what each request
// holds (routed-model-server.ts), one per test: `open` starts both, and they are closed after each test.
// For tests where a main agent and its sub-agents call the model at once, or a plan waits for approval.
import { afterEach } from "vitest";
import { createFixture, type Fixture } from "../session/session-fixture.js";
import { type ChatRequest, type RoutedModelServer, type RoutedReply, startRoutedModelServer } from "./routed-model-server.js";

export interface RoutedSessionBed {
	/** Starts the model with `reply` and a session on it with `tools` (and whatever `extra` adds). */
	open(reply: (r: ChatRequest) => RoutedReply | Promise<RoutedReply>, extra?: Parameters<typeof createFixture>[0]): Promise<Fixture>;
	/** The model of the running test (throws before `open`). */
	readonly server: RoutedModelServer;
}

export function routedSessionPerTest(tools: readonly string[]): RoutedSessionBed {
	let fx: Fixture | undefined;
	let server: RoutedModelServer | undefined;
	afterEach(async () => {
		await fx?.cleanup();
		await server?.close();
		fx = undefined;
		server = undefined;
	});
	return {
		async open(reply, extra = {}) {
			server = await startRoutedModelServer(reply);
			fx = await createFixture({
				...extra,
				session: { model: server.model, apiKey: "test-key", streamFn: undefined, tools: [...tools], ...extra.session },
			});
			return fx;
		},
		get server() {
			if (!server) throw new Error("no routed model yet: call open() first");
			return server;
		},
	};
}
