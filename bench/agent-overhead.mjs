// Agent overhead: our Agent against pi-agent-core's on the same scripted stream — T turns, each
// streaming D text deltas and one tool call, then a final text turn. Each library gets its own event
// stream class so only the agent layer differs. Prints one JSON line per library.

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { refDir, root } from "./lib/apps.mjs";

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")));
const turns = Number(args.turns ?? 1000);
const deltasPerTurn = Number(args.deltas ?? 100);
const which = args.impl ?? "rudder";

async function load(impl) {
	if (impl === "rudder") {
		const agent = await import(pathToFileURL(join(root, "dist", "src", "agent", "index.js")).href);
		const ai = await import(pathToFileURL(join(root, "dist", "src", "ai", "index.js")).href);
		return { Agent: agent.Agent, createStream: ai.createAssistantMessageEventStream };
	}
	const base = join(refDir, "node_modules", "@mariozechner");
	const agent = await import(pathToFileURL(join(base, "pi-agent-core", "dist", "index.js")).href);
	const ai = await import(pathToFileURL(join(base, "pi-ai", "dist", "index.js")).href);
	return { Agent: agent.Agent, createStream: ai.createAssistantMessageEventStream };
}

const model = {
	id: "bench",
	name: "bench",
	api: "bench",
	provider: "bench",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1e9,
	maxTokens: 1e6,
};
const usage = () => ({
	input: 1,
	output: 1,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 2,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

function makeStreamFn(createStream) {
	let call = 0;
	return () => {
		const turn = call++;
		const stream = createStream();
		const partial = {
			role: "assistant",
			content: [],
			api: "bench",
			provider: "bench",
			model: "bench",
			usage: usage(),
			stopReason: "stop",
			timestamp: Date.now(),
		};
		// Pushed from a macrotask, as a socket would deliver it.
		setImmediate(() => {
			stream.push({ type: "start", partial });
			const text = { type: "text", text: "" };
			partial.content.push(text);
			stream.push({ type: "text_start", contentIndex: 0, partial });
			for (let i = 0; i < deltasPerTurn; i++) {
				text.text += "tok ";
				stream.push({ type: "text_delta", contentIndex: 0, delta: "tok ", partial });
			}
			stream.push({ type: "text_end", contentIndex: 0, content: text.text, partial });
			if (turn < turns - 1) {
				const call = { type: "toolCall", id: `c${turn}`, name: "echo", arguments: { n: turn } };
				partial.content.push(call);
				stream.push({ type: "toolcall_start", contentIndex: 1, partial });
				stream.push({ type: "toolcall_end", contentIndex: 1, toolCall: call, partial });
				partial.stopReason = "toolUse";
				stream.push({ type: "done", reason: "toolUse", message: partial });
			} else stream.push({ type: "done", reason: "stop", message: partial });
		});
		return stream;
	};
}

const echoTool = {
	name: "echo",
	label: "echo",
	description: "echo",
	parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
	execute: async (_id, params) => ({ content: [{ type: "text", text: String(params.n) }], details: {} }),
};

const { Agent, createStream } = await load(which);
const agent = new Agent({ initialState: { model, tools: [echoTool] }, streamFn: makeStreamFn(createStream) });
let events = 0;
agent.subscribe(() => {
	events++;
});
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await agent.prompt("go");
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const last = agent.state.messages.at(-1);
if (last?.stopReason !== "stop") throw new Error(`run did not finish cleanly: ${last?.stopReason} ${last?.errorMessage ?? ""}`);
console.log(
	JSON.stringify({
		impl: which,
		turns,
		deltas: turns * deltasPerTurn,
		events,
		messages: agent.state.messages.length,
		wallMs: Math.round(wall),
		cpuMs: Math.round((cpu.user + cpu.system) / 1000),
		heapMB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
	}),
);
