// `/model`: the models the session offers, one per line, the highlighted one inverse.
import { Box, Text } from "ink";
import React from "react";
import type { Model } from "../src/ai/types.js";
import { sanitizeTerminalText } from "./sanitize.js";

export const PICKER_ROWS = 8;

export function ModelPicker({ models, index, current }: { models: readonly Model[]; index: number; current: Model }) {
	const first = Math.max(0, Math.min(index - PICKER_ROWS + 1, models.length - PICKER_ROWS));
	return (
		<Box flexDirection="column">
			<Text dimColor>Pick a model (↑/↓, Enter; Esc cancels)</Text>
			{models.slice(first, first + PICKER_ROWS).map((m, i) => {
				const selected = first + i === index;
				const active = m.provider === current.provider && m.id === current.id;
				return (
					<Text key={`${m.provider}/${m.id}`} inverse={selected} wrap="truncate">
						{active ? "● " : "  "}
						{sanitizeTerminalText(`${m.provider}/${m.id}`)}
						<Text dimColor> {sanitizeTerminalText(m.name)}</Text>
					</Text>
				);
			})}
		</Box>
	);
}
