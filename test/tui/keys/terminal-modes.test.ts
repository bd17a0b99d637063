import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { intentFor, parseKeyPress } from "../../../src/tui/keys/key-map.js";
import { enableKeyboardModes, kittyFlagsReply } from "../../../src/tui/keys/terminal-modes.js";

const idle = { isStreaming: false, inputEmpty: false, sinceLastCtrlC: Number.POSITIVE_INFINITY };
const intent = (raw: string) => intentFor(parseKeyPress(raw), idle).type;

describe("keyboard modes", () => {
	it("asks for the kitty protocol and modifyOtherKeys, queries kitty, and restores both once, also on exit", () => {
		const written: string[] = [];
		const exit = new EventEmitter();
		const restore = enableKeyboardModes({ write: (d: string) => written.push(d) }, exit);
		expect(written.join("")).toBe("\x1b[>1u\x1b[>4;1m\x1b[?u");
		// A crash: the process's exit event restores.
		exit.emit("exit");
		expect(written.slice(1).join("")).toBe("\x1b[<u\x1b[>4m");
		restore();
		expect(written).toHaveLength(2);
		// The normal path removes the exit listener.
		const second = enableKeyboardModes({ write: () => {} }, exit);
		second();
		expect(exit.listenerCount("exit")).toBe(0);
	});

	it("reads the terminal's answer to the query", () => {
		expect(kittyFlagsReply("\x1b[?1u")).toBe(1);
		expect(kittyFlagsReply("\x1b[?0u")).toBe(0);
		expect(kittyFlagsReply("\x1b[13;2u")).toBeUndefined();
		// The answer arriving as input does nothing.
		expect(intent("\x1b[?1u")).toBe("none");
	});

	it("decodes the keys both protocols send: Shift+Enter inserts a newline, Ctrl+C and Esc keep their meaning", () => {
		expect(intent("\x1b[13;2u")).toBe("newline");
		expect(intent("\x1b[27;2;13~")).toBe("newline");
		expect(intent("\x1b[13;3u")).toBe("followUp");
		// Kitty's forms of legacy keys mean what the legacy bytes mean.
		expect(intent("\x1b[99;5u")).toBe("clearInput");
		expect(intent("\x1b[99;5u")).toBe(intent("\x03"));
		const streaming = { ...idle, isStreaming: true };
		expect(intentFor(parseKeyPress("\x1b[27u"), streaming)).toEqual(intentFor(parseKeyPress("\x1b"), streaming));
		expect(intent("\x1b[9u")).toBe(intent("\t"));
		expect(intent("\r")).toBe("submit");
	});
});
