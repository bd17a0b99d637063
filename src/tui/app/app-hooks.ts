// The App's hooks, one job each: follow the terminal's size, the completion menu over the project's
// paths, the spinner tick, the session events the app answers (quit, a
// rewound prompt), and the work done once at mount.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { useStdin, useStdout } from "ink";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import type { AgentSessionApi } from "../../session/types.js";
import { type FrameClock, frameClock } from "../frame/frame-clock.js";
import type { LiveTick } from "../frame/frame-scheduler.js";
import { frameCounts, liveRegionFor, never, useRawInput } from "../ink/index.js";
import { type Completion, completionsFor, type DirEntry, MAX_COMPLETIONS } from "../input/completion.js";
import { type EditorState, emptyEditor } from "../input/editor-state.js";
import { editInExternalEditor } from "../input/external-editor.js";
import { FileIndex } from "../input/file-index.js";
import type { InputHistory } from "../input/input-history.js";
import { PathSearch } from "../input/path-search.js";
import { type CompletionMenuHandle, menuInputKey, useCompletionMenu } from "../input/use-completion-menu.js";
import type { EditorHandle } from "../input/use-editor.js";
import type { KeyBindings } from "../keys/keybindings.js";
import { loadHighlighter } from "../markdown/highlight.js";
import { helpText } from "../overlays/help.js";
import { type SessionView, unansweredPrompt } from "../transcript/session-view.js";
import { collectGarbage } from "../warm-up/collect-garbage.js";
import { prepareForReply, warmReplyRendering } from "../warm-up/warm-up.js";

const TICK_MS = 200;

/** The terminal's size, following resizes; `override` (tests) fixes it. */
export function useTerminalSize(override?: { rows: number; columns: number }) {
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

/** How long the width must stay put before the history is printed again (a drag sends many resizes). */
export const REWRAP_SETTLE_MS = 250;

/**
 * A change of width prints the history again, wrapped to the new width, as Ctrl+L does: printed rows
 * were wrapped by us at the old width, so the terminal's own re-wrap breaks them mid-word. Once the
 * width has settled for REWRAP_SETTLE_MS, and only while no run is active: a reprint scrolls the
 * screen into the scrollback, and a live frame (the spinner) scrolled there would stay as a stale copy.
 * A width change during a run is re-wrapped when it ends.
 */
export function useRewrapOnWidthChange(columns: number, idle: boolean, reprint: () => void): void {
	const printedAt = useRef(columns);
	const latest = useRef(reprint);
	latest.current = reprint;
	const [settled, setSettled] = useState(columns);
	useEffect(() => {
		const timer = setTimeout(() => setSettled(columns), REWRAP_SETTLE_MS);
		return () => clearTimeout(timer);
	}, [columns]);
	useEffect(() => {
		// `settled !== columns`: the width moves still; its own timer comes.
		if (!idle || settled !== columns || settled === printedAt.current) return;
		printedAt.current = settled;
		latest.current();
	}, [settled, columns, idle]);
}

function listDir(cwd: string) {
	return (dir: string): DirEntry[] =>
		readdirSync(join(cwd, dir), { withFileTypes: true }).map((e) => ({ name: e.name, isDirectory: e.isDirectory() }));
}

/** The completion menu for the input: commands, folders, and `@` paths walked in the background. */
export function useInputCompletion(input: EditorState, session: AgentSessionApi, cwd: string): CompletionMenuHandle {
	// A finished walk of the project's paths re-renders.
	const [indexVersion, indexUpdated] = useReducer((n: number) => n + 1, 0);
	const fileIndex = useMemo(() => new FileIndex(cwd, indexUpdated), [cwd]);
	useEffect(() => () => fileIndex.dispose(), [fileIndex]);
	// A search finished between keys re-renders too.
	const search = useMemo(() => new PathSearch({ limit: MAX_COMPLETIONS, onUpdate: indexUpdated }), []);
	const findPaths = useCallback(
		(query: string) => {
			const listing = fileIndex.current();
			return listing && search.find(query, listing);
		},
		[fileIndex, search],
	);
	// biome-ignore lint/correctness/useExhaustiveDependencies: indexVersion: a finished listing or search changes what `findPaths` returns
	const completions = useMemo(
		(): Completion[] =>
			completionsFor(input.text, input.cursor, {
				commands: session.commands(),
				listDir: listDir(cwd),
				findPaths,
				resources: () =>
					(session.getState().mcpServers ?? []).flatMap((s) =>
						(s.resources ?? []).map((r) => ({ ref: `${s.name}:${r.uri}`, name: r.name })),
					),
			}),
		[input.text, input.cursor, session, cwd, findPaths, indexVersion],
	);
	const completionsRef = useRef(completions);
	completionsRef.current = completions;
	return useCompletionMenu(() => completionsRef.current, menuInputKey(input));
}

/**
 * Spinners and elapsed seconds move while something runs, a few times a second. While a reply streams,
 * its own frames already move them: tick only after a quiet TICK_MS. No standing interval: one wake-up
 * on the app's frame clock (src/tui/frame/frame-clock.ts) TICK_MS after the last frame, which shares the
 * boundary timer with the frames and reads while they run, and is the only wake-up when they stop.
 */
export function useBusyTick(
	busy: boolean,
	refresh: () => void,
	live?: { tick: LiveTick; appClocks: () => boolean },
	clock: FrameClock = frameClock,
) {
	const lastRenderAt = useRef(0);
	lastRenderAt.current = clock.now();
	useEffect(() => {
		if (!busy) return;
		// The live tail's frames turn the spinners on their own; running tools' clocks need the App.
		const lastFrame = () => (live && !live.appClocks() ? Math.max(lastRenderAt.current, live.tick.at()) : lastRenderAt.current);
		// The boundary nearest the deadline can come up to half a frame early.
		const due = (now: number) => now - lastFrame() >= TICK_MS - clock.frameMs / 2;
		let cancel = () => {};
		let next = Number.POSITIVE_INFINITY;
		const wait = (from: number) => {
			next = from + TICK_MS;
			cancel = clock.at(next, check);
		};
		const check = () => {
			const now = clock.now();
			if (!due(now)) return wait(lastFrame());
			frameCounts?.add("busyTick");
			refresh();
			wait(now);
		};
		wait(lastFrame());
		// A tail frame at the boundary where the tools' clocks are due: the clock runs the tail's frame
		// first, then this tick's App render, which draws the tail too. The writer leaves that frame to
		// React, which draws both in one render, instead of a frame the App's overwrites in the same turn.
		// Due at this boundary: the clock runs a deadline less than half a frame ahead (frame-clock.ts).
		const region = live ? liveRegionFor(live.tick) : undefined;
		if (region && live) region.appRenders = () => live.appClocks() && next - clock.now() < clock.frameMs / 2 && due(clock.now());
		return () => {
			cancel();
			if (region) region.appRenders = never;
		};
	}, [busy, refresh, live, clock]);
}

/**
 * The terminal's keys to `onRaw`. What the first reply needs (syntax highlighting, the provider's
 * code, the markdown renderer's compiled regular expressions) loads when the user starts typing: off the start-up path, out of the idle footprint, and done
 * before the reply streams. Returns that preparation (an initial prompt needs it too).
 */
export function useKeyInput(session: AgentSessionApi, onRaw: (raw: string) => void): () => void {
	const prepared = useRef(false);
	const lastKeyAt = useRef(0);
	const prepare = () => {
		if (prepared.current) return;
		prepared.current = true;
		// The first markdown render compiles its regular expressions, the first request runs Node's
		// HTTP client, and start-up leaves the heap near V8's first limit: all at pauses in typing, not
		// in the first reply (src/tui/warm-up/warm-up.ts, collect-garbage.ts).
		const warmTransport = session.warmUp.bind(session);
		void prepareForReply({
			lastInputAt: () => lastKeyAt.current,
			loadRendering: loadHighlighter,
			warmRendering: warmReplyRendering,
			warmTransport,
			idle: () => session.getState().phase.kind === "idle",
			collect: collectGarbage,
		}).catch(() => {});
	};
	useRawInput((raw) => {
		lastKeyAt.current = Date.now();
		prepare();
		onRaw(raw);
	});
	return prepare;
}

/** Ink's stdout three ways: raw bytes, text printed above the live region, and the row count. */
export function useTerminalWriters() {
	const { stdout, write: aboveLiveRegion } = useStdout();
	return useMemo(
		() => ({ raw: (data: string) => stdout.write(data), aboveLiveRegion, rows: () => stdout.rows || 24 }),
		[stdout, aboveLiveRegion],
	);
}

/** Ctrl+G's editor session over Ink's stdin (raw mode) and the raw terminal writer. */
export function useExternalEditor(write: (data: string) => void) {
	const { setRawMode, isRawModeSupported } = useStdin();
	return (text: string) => editInExternalEditor(text, { setRawMode: (on) => isRawModeSupported && setRawMode(on), write });
}

/** The session events the app answers: `quit` ends it; a rewound prompt comes back to an empty input. */
export function useSessionEvents(session: AgentSessionApi, onExit: (code: number) => void, editor: EditorHandle) {
	// `/quit` reaches the session too (rpc and print share it); its `quit` event ends the app.
	useEffect(() => session.subscribe((event) => event.type === "quit" && onExit(0)), [session, onExit]);
	// After a conversation rewind (/rewind, /branch, /undo, /fork) the prompt comes back to an empty input.
	const { current: editorNow, set: setEditor } = editor;
	useEffect(
		() =>
			session.subscribe((event) => {
				if (event.type === "rewound" && event.text !== undefined && editorNow().text === "") setEditor(emptyEditor(event.text));
			}),
		[session, editorNow, setEditor],
	);
}

/**
 * A prompt the model never answered (the request failed) goes back to the end of the input history, so
 * ↑ on the empty input recalls it to send again, whatever was typed meanwhile. Never sent on its own.
 */
export function useRecallFailedPrompt(session: AgentSessionApi, history: InputHistory): void {
	useEffect(
		() =>
			session.subscribe((event) => {
				if (event.type !== "message_end") return;
				const prompt = unansweredPrompt(event.message, session.getState().messages);
				if (prompt?.trim()) history.add(prompt);
			}),
		[session, history],
	);
}

/**
 * /new and /clear (a new session id with an empty transcript) start on a clean screen, as Ctrl+L makes
 * it: the old session's history scrolls into the scrollback and is not printed again.
 */
export function useClearOnNewSession(session: AgentSessionApi, reprint: () => void): void {
	const latest = useRef(reprint);
	latest.current = reprint;
	useEffect(() => {
		let id = session.getState().sessionId;
		return session.subscribe((event) => {
			if (event.type !== "session_changed") return;
			const state = session.getState();
			const fresh = state.sessionId !== id && state.messages.length === 0;
			id = state.sessionId;
			if (fresh) latest.current();
		});
	}, [session]);
}

export interface StartupWork {
	session: AgentSessionApi;
	view: SessionView;
	refresh: () => void;
	configWarnings?: string[];
	notices?: string[];
	initialPrompt?: string;
	openResumePicker?: () => void;
	prepareForReply: () => void;
}

/** Once at mount: the start-up notices, the session picker of `rudder -r`, and the initial prompt. */
export function useStartup(work: StartupWork) {
	// biome-ignore lint/correctness/useExhaustiveDependencies: mount-time only: the notices and the initial prompt are sent once
	useEffect(() => {
		const { session, view, refresh, initialPrompt } = work;
		for (const text of work.configWarnings ?? []) view.add({ kind: "notice", level: "warning", text });
		for (const text of work.notices ?? []) view.add({ kind: "notice", level: "info", text });
		refresh();
		work.openResumePicker?.();
		if (!initialPrompt) return;
		work.prepareForReply();
		session.submit(initialPrompt).catch((error: unknown) => {
			view.add({ kind: "notice", level: "error", text: error instanceof Error ? error.message : String(error) });
			refresh();
		});
	}, []);
}

/** A short status line (the Ctrl+C quit hint): shown for `ms`, then gone; it never enters the history. */
export function useFlashStatus(): { text: string | undefined; flash: (text: string, ms: number) => void } {
	const [text, setText] = useState<string | undefined>(undefined);
	const timer = useRef<NodeJS.Timeout | undefined>(undefined);
	useEffect(() => () => clearTimeout(timer.current), []);
	const flash = useCallback((next: string, ms: number) => {
		clearTimeout(timer.current);
		setText(next);
		timer.current = setTimeout(() => setText(undefined), ms);
	}, []);
	return { text, flash };
}

/**
 * `/help` in the app: the commands and the keys of the table in use, as one history notice, and the
 * welcome panel again until the transcript changes.
 */
export function useHelp(session: AgentSessionApi, view: SessionView, bindings: KeyBindings, refresh: () => void, messages: number) {
	const [shownAt, setShownAt] = useState<number | undefined>(undefined);
	const show = () => {
		view.add({ kind: "notice", level: "info", text: helpText(session.commands(), bindings) });
		setShownAt(messages);
		refresh();
	};
	return { shown: shownAt === messages, show };
}
