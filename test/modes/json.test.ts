// `rudder --mode json` (built CLI): every event one JSON line on stdout, token lines without the
// growing partial message.
import { describe, expect, it } from "vitest";
import { textRecords } from "../helpers/openai-chunks.js";
import { cliPerTest, runCli } from "../helpers/rudder-cli.js";

const cli = cliPerTest();

describe("--mode json", () => {
	it("writes every session event as one JSON line, then exits", { timeout: 60_000 }, async () => {
		const { server, home } = await cli.setUp();
		server.enqueue({ kind: "sse", chunks: textRecords(["Hel", "lo ", "there"]) });
		const result = await runCli(["--mode", "json", "--model", "mock/mock-1", "say hello"], home);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		const lines = result.stdout.trimEnd().split("\n");
		const events = lines.map((line) => JSON.parse(line));
		const types = events.map((e) => e.type);
		// The workspace snapshot for rewind is taken before the prompt is sent.
		expect(types.slice(0, 2)).toEqual(["checkpoint_created", "agent_start"]);
		expect(types.at(-1)).toBe("agent_end");
		expect(types).toContain("message_end");

		const assistantEnd = events.find((e) => e.type === "message_end" && e.message.role === "assistant");
		expect(assistantEnd.message.content).toEqual([{ type: "text", text: "Hello there" }]);
		expect(assistantEnd.message.stopReason).toBe("stop");

		const deltas = events.filter((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta");
		expect(deltas.map((e) => e.assistantMessageEvent.delta).join("")).toBe("Hello there");
		for (const update of events.filter((e) => e.type === "message_update")) {
			expect(update.message).toBeUndefined();
			expect(update.assistantMessageEvent.partial).toBeUndefined();
		}
	});

	it("exits 1 when the run fails, after the events of the failed message", { timeout: 60_000 }, async () => {
		const { server, home } = await cli.setUp();
		const failure = { kind: "status" as const, status: 400, body: '{"error":{"message":"bad request body"}}' };
		server.enqueue(failure);
		const result = await runCli(["--mode", "json", "--model", "mock/mock-1", "hi"], home);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/^rudder: .*bad request body\n$/);
		const events = result.stdout
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line));
		const end = events.find((e) => e.type === "message_end" && e.message.role === "assistant");
		expect(end.message.stopReason).toBe("error");
		expect(events.at(-1).type).toBe("agent_end");
	});
});
