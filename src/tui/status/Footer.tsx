// One line under the input: where we are, the permission mode (in its colour: yolo as a warning), which
// model, and what the session has cost so far.
import { homedir } from "node:os";
import { Text } from "ink";
import React from "react";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import type { PermissionMode, SessionState } from "../../session/types.js";
import { color, modeStyles } from "../text/theme.js";

function compact(n: number): string {
	if (n < 1000) return String(n);
	if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
	return `${(n / 1_000_000).toFixed(1)}M`;
}

/** The footer in three parts: the mode is drawn in its own style between the other two. */
export interface FooterParts {
	before: string;
	mode?: PermissionMode;
	/** The mode as shown: its mark and name ("⚠ yolo"), empty without a mode. */
	modeText: string;
	after: string;
}

export function footerParts(state: SessionState, home = homedir()): FooterParts {
	const cwd = home && state.cwd.startsWith(home) ? `~${state.cwd.slice(home.length)}` : state.cwd;
	const model = `${state.model.provider}/${state.model.id}`;
	const thinking = state.model.reasoning && state.thinkingLevel !== "off" ? ` · thinking ${state.thinkingLevel}` : "";
	const tokens = `↑${compact(state.totals.input)} ↓${compact(state.totals.output)}`;
	const cost = `$${state.totals.cost.toFixed(3)}`;
	const context = state.contextWindow > 0 ? ` · ctx ${Math.round((state.contextTokens / state.contextWindow) * 100)}%` : "";
	const mode = state.permissionMode;
	// Right after the folder, so a narrow terminal still shows what will run without asking.
	const sandbox = mode && state.sandbox === "none" ? " · no sandbox" : "";
	return {
		before: sanitizeTerminalText(mode ? `${cwd} · ` : cwd),
		mode,
		modeText: mode ? `${modeStyles[mode].mark ?? ""}${mode}` : "",
		after: sanitizeTerminalText(`${sandbox} · ${model}${thinking} · ${tokens} · ${cost}${context}`),
	};
}

export function footerText(state: SessionState, home = homedir()): string {
	const p = footerParts(state, home);
	return `${p.before}${p.modeText}${p.after}`;
}

export function Footer({ state }: { state: SessionState }) {
	const p = footerParts(state);
	return <FooterLine before={p.before} mode={p.mode} modeText={p.modeText} after={p.after} />;
}

/** Re-rendered only when the text changes (tokens and cost move once a reply ends, not every frame). */
const FooterLine = React.memo(function FooterLine({ before, mode, modeText, after }: FooterParts) {
	const style = mode ? modeStyles[mode] : undefined;
	return (
		<Text wrap="truncate">
			<Text dimColor>{before}</Text>
			<Text color={color(style?.color)} bold={style?.bold}>
				{modeText}
			</Text>
			<Text dimColor>{after}</Text>
		</Text>
	);
});
