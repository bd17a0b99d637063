// One line under the input: where we are, which model, and what the session has cost so far.
import { homedir } from "node:os";
import { Text } from "ink";
import React from "react";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import type { SessionState } from "../../session/types.js";

function compact(n: number): string {
	if (n < 1000) return String(n);
	if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
	return `${(n / 1_000_000).toFixed(1)}M`;
}

export function footerText(state: SessionState, home = homedir()): string {
	const cwd = home && state.cwd.startsWith(home) ? `~${state.cwd.slice(home.length)}` : state.cwd;
	const model = `${state.model.provider}/${state.model.id}`;
	const thinking = state.model.reasoning && state.thinkingLevel !== "off" ? ` · thinking ${state.thinkingLevel}` : "";
	const tokens = `↑${compact(state.totals.input)} ↓${compact(state.totals.output)}`;
	const cost = `$${state.totals.cost.toFixed(3)}`;
	const context = state.contextWindow > 0 ? ` · ctx ${Math.round((state.contextTokens / state.contextWindow) * 100)}%` : "";
	// Right after the folder, so a narrow terminal still shows what will run without asking.
	const mode = state.permissionMode ? ` · ${state.permissionMode}${state.sandbox === "none" ? " · no sandbox" : ""}` : "";
	return sanitizeTerminalText(`${cwd}${mode} · ${model}${thinking} · ${tokens} · ${cost}${context}`);
}

export function Footer({ state }: { state: SessionState }) {
	return <FooterLine text={footerText(state)} />;
}

/** Re-rendered only when the text changes (tokens and cost move once a reply ends, not every frame). */
const FooterLine = React.memo(function FooterLine({ text }: { text: string }) {
	return (
		<Text dimColor wrap="truncate">
			{text}
		</Text>
	);
});
