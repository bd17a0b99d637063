// The run's status lines in the live region: the spinner with what the run is doing (or the retry
// countdown), and one line per running `!cmd` with its elapsed seconds. Key hints come from the table.
// The lines are styled rows we cut to the width ourselves (one plain <Text>), so that the live frame
// writer (src/tui/ink/live-region.ts) can turn the spinner on the tail's frames without React.
import { Box, Text, useStdout } from "ink";
import { useMemo, useSyncExternalStore } from "react";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import type { RunPhase } from "../../session/types.js";
import type { LiveTick } from "../frame/frame-scheduler.js";
import { frameCounts, liveRegionFor, partText, usePartKey } from "../ink/index.js";
import { type Line, type Style, toAnsi, truncateLine } from "../text/styled-text.js";
import { color, theme } from "../text/theme.js";
import { spinnerFrame, spinnerStep } from "../transcript/PendingTools.js";
import { lastLines, type RunningShell } from "../transcript/session-view.js";
import { runStatusText } from "./run-status.js";

export interface LiveStatusProps {
	/** A run is active and no tool call is being written (that has its own line). */
	working: boolean;
	phase: RunPhase;
	shells: ReadonlyMap<number, RunningShell>;
	now: number;
	/** The terminal's width: each line is cut to it. */
	columns: number;
	/**
	 * The live tail's own frames: with it, the spinners turn (and `now` is read) on those frames too,
	 * without the App rendering.
	 */
	liveTick?: LiveTick;
	/** " · Enter steers · Alt+Enter queues · Esc stops" and " · Esc stops". */
	hints: { working: string; shell: string };
}

const DIM: Style = { dim: true };

/** The status lines at `now` as ANSI rows: dim, the spinner in the accent colour, cut to `columns`. */
export function statusRows(p: Omit<LiveStatusProps, "now" | "liveTick">, now: number): string[] {
	const spinner = { text: spinnerFrame(now), style: { dim: true, color: color(theme.accent) } };
	const lines: Line[] = [];
	if (p.working) {
		lines.push([
			spinner,
			{ text: ` ${sanitizeTerminalText(runStatusText(p.phase, now, p.hints.shell) ?? `working${p.hints.working}`)}`, style: DIM },
		]);
	}
	for (const shell of p.shells.values()) {
		const seconds = Math.floor((now - shell.startedAt) / 1000);
		lines.push([spinner, { text: ` $ ${sanitizeTerminalText(shell.command)} · ${seconds}s${p.hints.shell}`, style: DIM }]);
		for (const row of shellLiveLines(shell)) lines.push([{ text: `  ${row}`, style: DIM }]);
	}
	return lines.map((line) => toAnsi(truncateLine(line, Math.max(1, p.columns))));
}

/** Rows of a running `!cmd`'s output shown under it (its last lines). */
export const SHELL_LIVE_ROWS = 5;

/**
 * The last lines of a running `!cmd`'s output as a terminal would show them: a carriage return (a
 * progress bar) starts its line over, and every line is sanitised.
 */
export function shellLiveLines(shell: RunningShell): string[] {
	if (!shell.output) return [];
	return lastLines(shell.output, SHELL_LIVE_ROWS)
		.split("\n")
		.map((line) => sanitizeTerminalText(line.replace(/\r+$/, "").split("\r").at(-1) ?? ""));
}

/** Status rows the running `!cmd`s take: a line each and their live output. */
export const shellStatusRows = (shells: ReadonlyMap<number, RunningShell>): number =>
	[...shells.values()].reduce((n, shell) => n + 1 + shellLiveLines(shell).length, 0);

/**
 * The moment's part of the status rows while it is only the spinner's turn (a running reply): rows are
 * the same within one spinner frame. NaN when seconds show too (a retry wait, a `!cmd`): not kept.
 */
const clockKey = (p: Omit<LiveStatusProps, "now" | "liveTick">, now: number): number =>
	p.shells.size === 0 && p.phase.kind !== "retrying" ? spinnerStep(now) : Number.NaN;

/**
 * statusRows, remembering its last answer: the live frame writer asks every frame (20 a second), the
 * spinner turns every SPINNER_MS, and nothing else moves while a reply streams.
 */
export function lastStatusRows(): (p: Omit<LiveStatusProps, "now" | "liveTick">, now: number) => string[] {
	let last:
		| { key: number; working: boolean; phase: RunPhase; columns: number; hints: LiveStatusProps["hints"]; rows: string[] }
		| undefined;
	return (p, now) => {
		const key = clockKey(p, now);
		if (
			last &&
			last.key === key &&
			last.working === p.working &&
			last.phase === p.phase &&
			last.columns === p.columns &&
			last.hints === p.hints
		)
			return last.rows;
		const rows = statusRows(p, now);
		last = Number.isNaN(key) ? undefined : { key, working: p.working, phase: p.phase, columns: p.columns, hints: p.hints, rows };
		return rows;
	};
}

export function LiveStatus(props: LiveStatusProps) {
	const { liveTick, now: appNow } = props;
	const region = liveTick ? liveRegionFor(liveTick) : undefined;
	const stdout = useStdout().stdout;
	if (region) region.stdout = stdout;
	frameCounts?.add("liveStatus");
	frameCounts?.watch(stdout);
	useSyncExternalStore(region?.react.subscribe ?? noSubscribe, region?.react.get ?? zero);
	const rowsAt = useMemo(lastStatusRows, []);
	const rows = () => rowsAt(props, liveTick ? Date.now() : appNow);
	if (region) region.status.rows = rows;
	const shown = rows();
	const text = partText(shown);
	const key = usePartKey(region, text);
	if (!shown.length) return null;
	return (
		<Box key={key} ref={region?.status.ref} flexDirection="column">
			<Text wrap="truncate">{text}</Text>
		</Box>
	);
}

const noSubscribe = () => () => {};
const zero = () => 0;
