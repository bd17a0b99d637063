// The todo list against a scripted model on 127.0.0.1: todo_write keeps the list in the session (state,
// event, file), a compaction puts it back into the context, a resumed session has it again.
import { describe, expect, it } from "vitest";
import { loadSession } from "../../../src/session/session-load.js";
import { textReply, toolCallsReply, toolResults } from "../../helpers/routed-model-server.js";
import { routedSessionPerTest } from "../../helpers/routed-session.js";

const bed = routedSessionPerTest(["read", "ls"]);

const todos = [
	{ content: "Read the parser", status: "completed" },
	{ content: "Fix the off-by-one", status: "in_progress" },
	{ content: "Run the tests", status: "pending" },
];

describe("the todo list", () => {
	it("is kept in the state, the file and /session, survives a compaction in the model's context, and comes back on resume", async () => {
		const fx = await bed.open((r) => {
			if (r.system.startsWith("You summarise")) return textReply("SUMMARY OF EARLIER WORK");
			if (r.text.includes("plan the fix") && toolResults(r).size === 0)
				return toolCallsReply([{ id: "todo_1", name: "todo_write", args: { todos } }]);
			return textReply("ok");
		});
		await fx.session.prompt("plan the fix");
		expect(fx.session.getState().todos).toEqual(todos);
		expect(await fx.waitForEvent("todo_updated")).toMatchObject({ todos });
		await fx.session.submit("/session");
		expect(fx.notices().join("\n")).toContain("Todo list:\n[x] Read the parser\n[~] Fix the off-by-one\n[ ] Run the tests");

		await fx.session.prompt("second turn");
		await fx.session.prompt("third turn");
		await fx.session.compact();
		await fx.session.prompt("after compaction");
		const request = bed.server.requests.at(-1);
		// The todo_write call and its result were summarised away; the list is still there.
		expect(request?.text).not.toContain("todo_1");
		expect(request?.text).toContain("SUMMARY OF EARLIER WORK");
		expect(request?.text).toContain("[~] Fix the off-by-one");

		const file = fx.session.getState().sessionFile as string;
		expect(loadSession(file).todos).toEqual(todos);
		await fx.session.dispose();
		const resumed = await fx.open({ sessionMode: { kind: "file", path: file } });
		expect(resumed.getState().todos).toEqual(todos);
	});

	it("rejects an item with an unknown status, naming the field, and keeps the list as it was", async () => {
		const fx = await bed.open((r) =>
			toolResults(r).size === 0
				? toolCallsReply([{ id: "todo_bad", name: "todo_write", args: { todos: [{ content: "x", status: "done" }] } }])
				: textReply(`saw: ${toolResults(r).get("todo_bad")}`),
		);
		await fx.session.prompt("go");
		expect(fx.session.getState().todos).toEqual([]);
		expect(toolResults(bed.server.requests[1]).get("todo_bad")).toContain("todos.0.status");
	});
});
