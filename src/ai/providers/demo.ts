// The offline demo: what a first start without any key or local server talks to. It is the scripted
// faux provider with one reply function that reads the conversation, so the whole app (streaming,
// markdown, tool calls, tool results) can be tried without a network. It says it is a demo every time.
import { getApiProvider, registerApiProvider } from "../api-registry.js";
import { DEMO_PROVIDER, keyEnvVarsText } from "../constants.js";
import type { AssistantMessage, Context, Message, Model, ToolCall, ToolResultMessage } from "../types.js";
import { fauxAssistantMessage, fauxText, fauxToolCall, registerFauxProvider } from "./faux.js";

export const DEMO_API = "rudder-demo";
export { DEMO_PROVIDER };

export interface DemoProviderOptions {
	/** Stream speed; default 60 tokens (≈ 4 characters each) a second, so streaming is visible. 0: unpaced. */
	tokensPerSecond?: number;
}

const DEMO_BANNER = "_Rudder demo: a scripted offline reply, no model was called._";
const SETUP_HINT =
	`Set ${keyEnvVarsText()}, ` +
	"or start a local OpenAI-compatible server (Ollama, llama.cpp, LM Studio, vLLM), then restart to use a real model.";
/** Entries or lines shown from a tool result; the rest is counted, not printed. */
const PREVIEW_LINES = 12;

export function createDemoModel(): Model {
	return {
		id: "demo",
		name: "Demo (offline, scripted)",
		api: DEMO_API,
		provider: DEMO_PROVIDER,
		baseUrl: "",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 128_000,
		maxTokens: 16_384,
	};
}

/** Registers the demo under api "rudder-demo" (again: replaces it) and returns its model. */
export function registerDemoProvider(options: DemoProviderOptions = {}): Model {
	const faux = registerFauxProvider({
		api: DEMO_API,
		provider: DEMO_PROVIDER,
		models: [{ id: "demo" }],
		tokensPerSecond: options.tokensPerSecond ?? 60,
		tokenSize: { min: 1, max: 1 },
	});
	const scripted = getApiProvider(DEMO_API);
	if (!scripted) throw new Error("The demo provider failed to register");
	registerApiProvider({
		api: DEMO_API,
		streamSimple: (model, context, streamOptions) => {
			// Queued right before each call, so the demo never runs out, also with overlapping calls.
			faux.setResponses([demoReply]);
			const stream = scripted.streamSimple(model, context, streamOptions);
			// The faux provider records every context for tests; a long demo session must not keep them all.
			faux.calls.splice(0);
			return stream;
		},
	});
	return createDemoModel();
}

/** The demo's answer to a conversation: a tool call, a summary of tool results, or an echo. Pure. */
export function demoReply(context: Context): AssistantMessage {
	const last = context.messages.at(-1);
	if (last?.role === "toolResult") return summariseToolResults(context.messages);
	const prompt = lastUserText(context.messages);
	const toolNames = new Set((context.tools ?? []).map((t) => t.name));

	const readMatch = /\bread\s+(?:(?:the|this|file|a)\s+)*[`"']?([^\s`"']+)/i.exec(prompt);
	if (readMatch) {
		const path = readMatch[1].replace(/[.,;:!?]+$/, "");
		if (!toolNames.has("read")) return textReply(`${DEMO_BANNER}\n\nI would read \`${path}\`, but the \`read\` tool is not enabled.`);
		return fauxAssistantMessage([
			fauxText(`${DEMO_BANNER}\n\nReading \`${path}\` with the real \`read\` tool:`),
			fauxToolCall("read", { path }),
		]);
	}
	if (/\b(ls|list|files?|folders?|director(y|ies))\b/i.test(prompt)) {
		const lsPath = /\bls\s+([^\s`"']+)/i.exec(prompt)?.[1];
		const path = lsPath && !lsPath.startsWith("-") ? lsPath : ".";
		if (!toolNames.has("ls")) {
			// The default tool set has bash but not ls: list through bash then.
			if (!toolNames.has("bash")) return textReply(`${DEMO_BANNER}\n\nI would list the files, but neither \`ls\` nor \`bash\` is enabled.`);
			const command = `ls -la ${path === "." ? "" : shellWord(path)}`.trim();
			return fauxAssistantMessage([
				fauxText(`${DEMO_BANNER}\n\nListing \`${path}\` with the real \`bash\` tool:`),
				fauxToolCall("bash", { command }),
			]);
		}
		return fauxAssistantMessage([
			fauxText(`${DEMO_BANNER}\n\nListing \`${path}\` with the real \`ls\` tool:`),
			fauxToolCall("ls", { path }),
		]);
	}
	return textReply(echoMarkdown(prompt));
}

/** Quotes a path for the shell (single quotes, embedded ones escaped). */
function shellWord(text: string): string {
	return `'${text.replace(/'/g, `'\\''`)}'`;
}

function textReply(text: string): AssistantMessage {
	return fauxAssistantMessage(text);
}

function echoMarkdown(prompt: string): string {
	const said = prompt.trim() || "(nothing)";
	const quoted = said
		.split("\n")
		.map((line) => `> ${line}`)
		.join("\n");
	return [
		"## Demo reply",
		"",
		DEMO_BANNER,
		"",
		"You said:",
		"",
		quoted,
		"",
		"Things to try here:",
		"",
		"- **list the files**: runs the real `ls` (or `bash`) tool and summarises what it found",
		"- **read package.json**: runs the real `read` tool",
		"- type while this streams to steer, or press Esc to stop it",
		"",
		fence(`const prompt = ${JSON.stringify(said)};\nconsole.log(prompt.length); // ${said.length}`, "ts"),
		"",
		SETUP_HINT,
	].join("\n");
}

/** Summarises the tool results that follow the last assistant message, one section each. */
function summariseToolResults(messages: Message[]): AssistantMessage {
	const results: ToolResultMessage[] = [];
	let i = messages.length - 1;
	for (; i >= 0 && messages[i].role === "toolResult"; i--) results.unshift(messages[i] as ToolResultMessage);
	const assistant = messages[i];
	const calls = new Map<string, ToolCall>();
	if (assistant?.role === "assistant") {
		for (const block of assistant.content) if (block.type === "toolCall") calls.set(block.id, block);
	}
	const sections = results.map((result) => summariseOne(result, calls.get(result.toolCallId)));
	return textReply([DEMO_BANNER, ...sections, SETUP_HINT].join("\n\n"));
}

function summariseOne(result: ToolResultMessage, call: ToolCall | undefined): string {
	const text = result.content
		.map((c) => (c.type === "text" ? c.text : `[${c.mimeType} image]`))
		.join("\n")
		.trimEnd();
	const name = result.toolName;
	if (result.isError) return `### \`${name}\` failed\n\n${fence(text || "(no message)")}`;
	const lines = text ? text.split("\n") : [];
	const rest = lines.length > PREVIEW_LINES ? `\n\n…and ${lines.length - PREVIEW_LINES} more.` : "";
	if (name === "ls") {
		const path = typeof call?.arguments.path === "string" ? call.arguments.path : ".";
		// Entries come first, one a line; a blank line starts the tool's own notes (e.g. a limit notice).
		const blank = lines.indexOf("");
		const entries = (blank < 0 ? lines : lines.slice(0, blank)).filter((line) => line !== "(empty directory)");
		if (entries.length === 0) return `### \`${path}\` is empty`;
		const total = typeof result.details?.count === "number" ? result.details.count : entries.length;
		const folders = entries.filter((e) => e.endsWith("/")).length;
		const items = entries.slice(0, PREVIEW_LINES).map((e) => `- \`${e.replace(/`/g, "'")}\``);
		const more = total > PREVIEW_LINES ? `\n\n…and ${total - PREVIEW_LINES} more.` : "";
		const kinds = `${folders} ${folders === 1 ? "folder" : "folders"}, ${entries.length - folders} ${entries.length - folders === 1 ? "file" : "files"} shown`;
		return `### \`${path}\`: ${total} ${total === 1 ? "entry" : "entries"} (${kinds})\n\n${items.join("\n")}${more}`;
	}
	if (name === "read") {
		const path = typeof call?.arguments.path === "string" ? call.arguments.path : "the file";
		const language = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? "";
		const head = lines.slice(0, PREVIEW_LINES).join("\n");
		return `### \`${path}\`: ${lines.length} ${lines.length === 1 ? "line" : "lines"}\n\n${fence(head, language)}${rest}`;
	}
	return `### \`${name}\` returned ${lines.length} ${lines.length === 1 ? "line" : "lines"}\n\n${fence(lines.slice(0, PREVIEW_LINES).join("\n"))}${rest}`;
}

function lastUserText(messages: Message[]): string {
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i];
		if (m.role !== "user") continue;
		if (typeof m.content === "string") return m.content;
		return m.content.map((c) => (c.type === "text" ? c.text : "")).join("");
	}
	return "";
}

/**
 * A code fence longer than any backtick run inside, so echoed text cannot close it early. Plain output
 * gets no language: a label would only say "text".
 */
function fence(text: string, language = ""): string {
	const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
	const ticks = "`".repeat(Math.max(3, longest + 1));
	return `${ticks}${language}\n${text}\n${ticks}`;
}
