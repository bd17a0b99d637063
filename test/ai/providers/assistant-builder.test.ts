import { describe, expect, it } from "vitest";
import { BUILTIN_MODELS } from "../../../src/ai/models.js";
import { AssistantBuilder } from "../../../src/ai/providers/assistant-builder.js";
import type { AssistantMessageEvent, Model } from "../../../src/ai/types.js";

const model = BUILTIN_MODELS[0] as Model;

/** The events pushed so far, as `type@index:delta`. */
async function drain(builder: AssistantBuilder): Promise<string[]> {
	const out: string[] = [];
	for await (const e of builder.stream as AsyncIterable<AssistantMessageEvent>) {
		if ("delta" in e) out.push(`${e.type}@${e.contentIndex}:${e.delta}`);
		else out.push("contentIndex" in e ? `${e.type}@${e.contentIndex}` : e.type);
	}
	return out;
}

describe("AssistantBuilder.hold / release", () => {
	it("pushes each delta as it comes when not holding", async () => {
		const b = new AssistantBuilder(model);
		b.text("a");
		b.text("b");
		b.finish("stop");
		expect(await drain(b)).toEqual(["start", "text_start@0", "text_delta@0:a", "text_delta@0:b", "text_end@0", "done"]);
	});

	it("merges a held block's deltas into one event, pushed at release", async () => {
		const b = new AssistantBuilder(model);
		b.hold();
		b.text("a");
		b.text("b");
		b.text("c");
		// The message has the text at once; only its event waits.
		expect(b.output.content).toEqual([{ type: "text", text: "abc" }]);
		b.release();
		b.text("d");
		b.finish("stop");
		expect(await drain(b)).toEqual(["start", "text_start@0", "text_delta@0:abc", "text_delta@0:d", "text_end@0", "done"]);
	});

	it("keeps the wire's order: another block, tool calls in turn, the end", async () => {
		const b = new AssistantBuilder(model);
		b.hold();
		b.thinking("t1");
		b.thinking("t2");
		b.text("x");
		b.toolCallStart("0", "id0", "read");
		b.toolCallStart("1", "id1", "grep");
		b.toolCallDelta("0", '{"pa');
		b.toolCallDelta("0", 'th":"a"}');
		b.toolCallDelta("1", "{}");
		b.toolCallDelta("0", "");
		b.finish("stop");
		expect(await drain(b)).toEqual([
			"start",
			"thinking_start@0",
			"thinking_delta@0:t1t2",
			"thinking_end@0",
			"text_start@1",
			"text_delta@1:x",
			"text_end@1",
			"toolcall_start@2",
			"toolcall_start@3",
			'toolcall_delta@2:{"path":"a"}',
			"toolcall_delta@3:{}",
			"toolcall_end@2",
			"toolcall_end@3",
			"done",
		]);
		expect(b.output.content[2]).toMatchObject({ arguments: { path: "a" } });
	});

	it("delivers the held text before a failure's error event", async () => {
		const b = new AssistantBuilder(model);
		b.hold();
		b.text("partial ");
		b.text("reply");
		b.fail(new Error("connection reset"));
		expect(await drain(b)).toEqual(["start", "text_start@0", "text_delta@0:partial reply", "error"]);
	});
});
