// One scripted server per test, for provider test files that need a clean server (no leftover replies,
// no recorded requests) in every case.
import { afterEach, beforeEach } from "vitest";
import { type ScriptedServer, startScriptedServer } from "./sse-server.js";

/**
 * A fresh server for each test of the calling file (started in `beforeEach`, closed in `afterEach`),
 * behind one object that always speaks for the current test's server.
 */
export function scriptedServerPerTest(): ScriptedServer {
	let current: ScriptedServer | undefined;
	beforeEach(async () => {
		current = await startScriptedServer();
	});
	afterEach(async () => {
		await current?.close();
		current = undefined;
	});
	const active = (): ScriptedServer => {
		if (!current) throw new Error("the scripted server exists only while a test runs");
		return current;
	};
	return {
		get url() {
			return active().url;
		},
		get requests() {
			return active().requests;
		},
		openSockets: () => active().openSockets(),
		connections: () => active().connections(),
		enqueue: (...replies) => active().enqueue(...replies),
		close: () => active().close(),
	};
}
