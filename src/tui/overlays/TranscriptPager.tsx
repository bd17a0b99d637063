// The sub-agent transcript pager (transcript-pager.ts): its title, one page of lines, and the keys.
import { Box, Text } from "ink";
import { hintLine } from "../keys/key-hints.js";
import { DEFAULT_KEY_BINDINGS, type KeyBindings } from "../keys/keybindings.js";
import { color, theme } from "../text/theme.js";
import type { TranscriptPagerState } from "./transcript-pager.js";

/** The title and the key line around the page. */
export const PAGER_FRAME_ROWS = 2;

export function TranscriptPager({ pager, page, bindings }: { pager: TranscriptPagerState; page: number; bindings?: KeyBindings }) {
	const shown = pager.lines.slice(pager.top, pager.top + page);
	const hints = hintLine(bindings ?? DEFAULT_KEY_BINDINGS, [
		["pagerUp", "up"],
		["pagerDown", "down"],
		["pagerPageUp", "page up"],
		["pagerPageDown", "page down"],
		["pagerClose", "closes"],
	]);
	const keys = `lines ${pager.top + 1}-${pager.top + shown.length} of ${pager.lines.length} · ${hints}`;
	return (
		<Box flexDirection="column">
			<Text bold color={color(theme.accent)} wrap="truncate">
				{pager.title}
			</Text>
			{shown.map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: lines are positions in the transcript
				<Text key={i} wrap="truncate">
					{line}
				</Text>
			))}
			<Text dimColor wrap="truncate">
				{keys}
			</Text>
		</Box>
	);
}
