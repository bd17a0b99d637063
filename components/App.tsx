// The interactive app: history above (written once), the live region below (the streaming tail,
// running tools, the queue, the input, the footer), kept shorter than the terminal. It renders session
// state and calls session methods; no business logic lives here.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Box, Text, useStdout } from "ink";
import type React from "react";
import { useEffect, useMemo, useReducer, useRef } from "react";
import { sanitizeTerminalText } from "../src/safety/sanitize.js";
import type { AgentSessionApi } from "../src/session/types.js";
import { ApprovalPrompt, approvalRows } from "./ApprovalPrompt.js";
import { type ApprovalPromptState, approvalKey, initialApprovalState } from "./approval-prompt-state.js";
import { CompletionMenu, menuRows as completionRows } from "./CompletionMenu.js";
import { type Completion, completionsFor, type DirEntry } from "./completion.js";
import { emptyEditor } from "./editor-state.js";
import { Footer } from "./Footer.js";
import { FileIndex } from "./file-index.js";
import { History } from "./History.js";
import { InputBox, inputRows } from "./InputBox.js";
import { MAX_INPUT_ROWS, MAX_QUEUE_ROWS, MAX_TOOL_ROWS, tailBudget } from "./ink/live-budget.js";
import { useRawInput } from "./ink/use-raw-input.js";
import { type InputHistory, openInputHistory } from "./input-history.js";
import { hintLine, keyLabel } from "./key-hints.js";
import { DEFAULT_KEY_BINDINGS, type KeyBindings } from "./keybindings.js";
import { loadHighlighter } from "./markdown/highlight.js";
import { PendingTools, pendingToolRows, spinnerFrame } from "./PendingTools.js";
import { Picker, pickerRows } from "./Picker.js";
import { QueueLines, queueLines } from "./QueueLines.js";
import type { RenderHints } from "./render/hints.js";
import { runStatusText } from "./run-status.js";
import { StreamingMessage, TAIL_MARGIN_ROWS } from "./StreamingMessage.js";
import { color, theme } from "./theme.js";
import { menuInputKey, useCompletionMenu } from "./use-completion-menu.js";
import { useEditor } from "./use-editor.js";
import { useHistoryBatches } from "./use-history-batches.js";
import { useInputController } from "./use-input-controller.js";
import { useSession } from "./use-session.js";

export interface AppProps {
	session: AgentSessionApi;
	onExit: (code: number) => void;
	/** Lines printed into history before anything else (startup warnings, the first-start help). */
	notices?: string[];
	initialPrompt?: string;
	/** Input history; defaults to the file under the data folder. */
	history?: InputHistory;
	/** Terminal size override (tests); defaults to stdout's, following resizes. */
	size?: { rows: number; columns: number };
	/** The key table (defaults plus keybindings.json); the defaults when absent. */
	keyBindings?: KeyBindings;
	/** Config problems found as the app starts (keybindings.json), shown first, one warning each. */
	configWarnings?: string[];
	/** Opens the session picker at start (`rudder -r`). */
	openResumePicker?: boolean;
	/** Shown above the input while the transcript is empty (the first-start panel). */
	welcome?: React.ReactNode;
}

const TICK_MS = 200;
/** Quiet time after the last width change before the history is printed again. */
const RESIZE_SETTLE_MS = 150;
/** Rows the first-start panel takes (border and six lines). */
const WELCOME_ROWS = 8;

function listDir(cwd: string) {
	return (dir: string): DirEntry[] =>
		readdirSync(join(cwd, dir), { withFileTypes: true }).map((e) => ({ name: e.name, isDirectory: e.isDirectory() }));
}

/** The live region's key hints, from the key table: " · Enter steers · Alt+Enter queues · Esc stops". */
function keyHints(bindings: KeyBindings): { working: string; shell: string; render: RenderHints } {
	const line = (parts: Parameters<typeof hintLine>[1]) => {
		const text = hintLine(bindings, parts);
		return text ? ` · ${text}` : "";
	};
	return {
		working: line([
			["submit", "steers"],
			["followUp", "queues"],
			["abort", "stops"],
		]),
		shell: line([["abort", "stops"]]),
		render: { expandKey: keyLabel(bindings, "toggleToolOutput") },
	};
}

function useTerminalSize(override?: { rows: number; columns: number }) {
	const { stdout } = useStdout();
	const [, bump] = useReducer((n: number) => n + 1, 0);
	useEffect(() => {
		if (override) return;
		stdout.on("resize", bump);
		return () => {
			stdout.off("resize", bump);
		};
	}, [stdout, override]);
	return override ?? { rows: stdout.rows || 24, columns: stdout.columns || 80 };
}

export function App(props: AppProps) {
	const { session } = props;
	const { view, state } = useSession(session);
	const size = useTerminalSize(props.size);
	const editor = useEditor();
	const history = useMemo(() => props.history ?? openInputHistory(), [props.history]);
	const [, refresh] = useReducer((n: number) => n + 1, 0);
	const { stdout, write: aboveLiveRegion } = useStdout();
	const writers = useMemo(
		() => ({ raw: (data: string) => stdout.write(data), aboveLiveRegion, rows: () => stdout.rows || 24 }),
		[stdout, aboveLiveRegion],
	);
	const { batches, epoch, reprint } = useHistoryBatches(view.history, writers);

	// A new width re-wraps the history: once the resizing has settled, it is printed again.
	const printedColumns = useRef(size.columns);
	useEffect(() => {
		if (size.columns === printedColumns.current) return;
		const timer = setTimeout(() => {
			printedColumns.current = size.columns;
			reprint("resize");
		}, RESIZE_SETTLE_MS);
		return () => clearTimeout(timer);
	}, [size.columns, reprint]);

	// The project's paths for `@` fuzzy completion, walked in the background; a finished walk re-renders.
	const [indexVersion, indexUpdated] = useReducer((n: number) => n + 1, 0);
	const fileIndex = useMemo(() => new FileIndex(state.cwd, indexUpdated), [state.cwd]);
	// biome-ignore lint/correctness/useExhaustiveDependencies: indexVersion: a finished walk changes what `paths` returns
	const completions = useMemo(
		(): Completion[] =>
			completionsFor(editor.state.text, editor.state.cursor, {
				commands: session.commands(),
				listDir: listDir(state.cwd),
				paths: () => fileIndex.list(),
			}),
		[editor.state.text, editor.state.cursor, session, state.cwd, fileIndex, indexVersion],
	);
	const completionsRef = useRef(completions);
	completionsRef.current = completions;
	const menu = useCompletionMenu(() => completionsRef.current, menuInputKey(editor.state));

	const bindings = props.keyBindings ?? DEFAULT_KEY_BINDINGS;
	const hints = useMemo(() => keyHints(bindings), [bindings]);
	// The waiting approval's prompt state (selection, typed reason); read by the next key before React re-renders.
	const approvalRef = useRef<ApprovalPromptState | undefined>(undefined);
	const pending = state.pendingApproval;
	if (pending && approvalRef.current?.id !== pending.id) approvalRef.current = initialApprovalState(pending.id);
	const onApprovalKey = (key: Parameters<typeof approvalKey>[1], action: string): "stop" | undefined => {
		const request = session.getState().pendingApproval;
		if (!request) return undefined;
		const current = approvalRef.current?.id === request.id ? approvalRef.current : initialApprovalState(request.id);
		const { state: next, outcome } = approvalKey(current, key, request, action);
		approvalRef.current = next;
		if (outcome.type === "answer") session.respondToApproval?.(request.id, outcome.response);
		if (outcome.type === "stop") session.respondToApproval?.(request.id, { decision: "deny", reason: "The user stopped the run." });
		refresh();
		return outcome.type === "stop" ? "stop" : undefined;
	};

	const { onRaw, picker, setPickerQuery, openResumePicker } = useInputController({
		bindings,
		session,
		view,
		editor,
		history,
		menu,
		exit: props.onExit,
		redraw: () => reprint("redraw"),
		refresh,
		approvalKey: onApprovalKey,
	});
	// What the first reply needs (syntax highlighting, the provider's code) loads when the user starts
	// typing: off the start-up path, out of the idle footprint, and done before the reply streams.
	const prepared = useRef(false);
	const prepareForReply = () => {
		if (prepared.current) return;
		prepared.current = true;
		void loadHighlighter();
		void session.warmUp?.().catch(() => {});
	};
	useRawInput((raw) => {
		prepareForReply();
		onRaw(raw);
	});

	// biome-ignore lint/correctness/useExhaustiveDependencies: mount-time only (see below)
	useEffect(() => {
		for (const text of props.configWarnings ?? []) view.add({ kind: "notice", level: "warning", text });
		for (const text of props.notices ?? []) view.add({ kind: "notice", level: "info", text });
		refresh();
		if (props.openResumePicker) openResumePicker();
		if (props.initialPrompt) prepareForReply();
		if (props.initialPrompt)
			session.submit(props.initialPrompt).catch((error: unknown) => {
				view.add({ kind: "notice", level: "error", text: error instanceof Error ? error.message : String(error) });
				refresh();
			});
		// Mount-time only: the notices and the initial prompt are sent once.
	}, []);

	// `/quit` reaches the session too (rpc and print share it); its `quit` event ends the app.
	useEffect(() => session.subscribe((event) => event.type === "quit" && props.onExit(0)), [session, props.onExit]);
	// After a conversation rewind (/rewind, /branch, /undo, /fork) the prompt comes back to an empty input.
	const { current: editorNow, set: setEditor } = editor;
	useEffect(
		() =>
			session.subscribe((event) => {
				if (event.type === "rewound" && event.text !== undefined && editorNow().text === "") setEditor(emptyEditor(event.text));
			}),
		[session, editorNow, setEditor],
	);

	// Spinners and elapsed seconds move while something runs, a few times a second.
	// While a reply streams, its own frames already move them: tick only after a quiet TICK_MS.
	// The run phase covers streaming, tools, a retry wait, an approval and a compaction.
	const busy = state.phase.kind !== "idle" || view.tools.size > 0 || view.shells.size > 0;
	const lastRenderAt = useRef(0);
	lastRenderAt.current = Date.now();
	useEffect(() => {
		if (!busy) return;
		const timer = setInterval(() => {
			if (Date.now() - lastRenderAt.current >= TICK_MS) refresh();
		}, TICK_MS / 2);
		return () => clearInterval(timer);
	}, [busy]);

	const now = Date.now();
	const width = Math.max(10, size.columns - 2);
	// Same editor state and width → same array, so the memoised InputBox skips streaming frames.
	const rows = useMemo(() => inputRows(editor.state, width, MAX_INPUT_ROWS), [editor.state, width]);
	const queue = queueLines(view.steering, view.followUp, MAX_QUEUE_ROWS);
	const tools = pendingToolRows([...view.tools.values()], MAX_TOOL_ROWS);
	const toolRows = tools.reduce((n, t) => n + 1 + t.output.length, 0);
	const approvalHeight = pending ? approvalRows(pending, Math.max(6, size.rows - 6)) : 0;
	const menuRows = (picker ? pickerRows(picker) : completionRows(menu.items.length)) + approvalHeight;
	const showWelcome = props.welcome !== undefined && state.messages.length === 0 && !state.isStreaming;
	const statusRows = (state.isStreaming ? 1 : 0) + view.shells.size + (showWelcome ? WELCOME_ROWS : 0);
	const tail = Math.max(
		0,
		tailBudget({ rows: size.rows, inputRows: rows.length, menuRows, queueRows: queue.length, toolRows, statusRows }) - TAIL_MARGIN_ROWS,
	);

	return (
		<>
			<History key={epoch} items={batches} columns={size.columns} hints={hints.render} />
			<Box flexDirection="column">
				{showWelcome ? props.welcome : null}
				<StreamingMessage tail={view.tail} columns={size.columns} maxRows={tail} />
				{view.tail.writingToolCall ? <Text dimColor>{`… writing ${sanitizeTerminalText(view.tail.writingToolCall)} call`}</Text> : null}
				<PendingTools tools={tools.map((t) => t.tool)} now={now} maxRows={MAX_TOOL_ROWS} />
				{state.isStreaming && !view.tail.writingToolCall ? (
					<Text dimColor wrap="truncate">
						<Text color={color(theme.accent)}>{spinnerFrame(now)}</Text>{" "}
						{sanitizeTerminalText(runStatusText(state.phase, now, hints.shell) ?? `working${hints.working}`)}
					</Text>
				) : null}
				{[...view.shells].map(([id, shell]) => (
					<Text key={`shell-${id}`} dimColor wrap="truncate">
						<Text color={color(theme.accent)}>{spinnerFrame(now)}</Text> $ {sanitizeTerminalText(shell.command)} ·{" "}
						{Math.floor((now - shell.startedAt) / 1000)}s{hints.shell}
					</Text>
				))}
				<QueueLines lines={queue} />
				{pending && approvalRef.current ? (
					<ApprovalPrompt request={pending} state={approvalRef.current} maxRows={Math.max(6, size.rows - 6)} />
				) : null}
				<InputBox rows={rows} placeholder={state.isStreaming ? "steer the agent…" : "ask, /command, @file, !shell"} />
				{picker ? <Picker picker={picker} onQuery={setPickerQuery} bindings={bindings} /> : null}
				{!picker && menu.items.length > 0 ? <CompletionMenu items={menu.items} selected={menu.selected} bindings={bindings} /> : null}
				<Footer state={state} />
			</Box>
		</>
	);
}
