// One closed markdown block as Ink elements: headings, paragraphs with emphasis, code spans and links,
// lists, quotes and fenced code (coloured when highlight.js has loaded). Rendered once, into history.
import { Box, Text } from "ink";
import { lexer, type Token, type Tokens } from "marked";
import React from "react";
import { sanitizeTerminalText } from "../sanitize.js";
import { color, theme } from "../theme.js";
import { highlightCode } from "./highlight.js";

/** Inline tokens → nested `<Text>`; `key` prefixes keep React keys unique within a block. */
function renderInline(tokens: Token[] | undefined, key: string): React.ReactNode[] {
	if (!tokens) return [];
	return tokens.map((t, i) => {
		const k = `${key}.${i}`;
		switch (t.type) {
			case "strong":
				return (
					<Text key={k} bold>
						{renderInline((t as Tokens.Strong).tokens, k)}
					</Text>
				);
			case "em":
				return (
					<Text key={k} italic>
						{renderInline((t as Tokens.Em).tokens, k)}
					</Text>
				);
			case "del":
				return (
					<Text key={k} strikethrough>
						{renderInline((t as Tokens.Del).tokens, k)}
					</Text>
				);
			case "codespan":
				return (
					<Text key={k} color={color(theme.code)}>
						{sanitizeTerminalText((t as Tokens.Codespan).text)}
					</Text>
				);
			case "link": {
				const link = t as Tokens.Link;
				const label = renderInline(link.tokens, k);
				// The URL is printed, never turned into an OSC 8 hyperlink: what you see is where it goes.
				return (
					<Text key={k}>
						<Text color={color(theme.link)} underline>
							{label}
						</Text>
						{link.text === link.href ? "" : ` (${sanitizeTerminalText(link.href)})`}
					</Text>
				);
			}
			case "br":
				return "\n";
			case "text": {
				const text = t as Tokens.Text;
				if (text.tokens?.length) return <Text key={k}>{renderInline(text.tokens, k)}</Text>;
				return sanitizeTerminalText(text.text);
			}
			default:
				return sanitizeTerminalText("text" in t && typeof t.text === "string" ? t.text : t.raw);
		}
	});
}

function CodeBlock({ code }: { code: Tokens.Code }) {
	const source = sanitizeTerminalText(code.text);
	const segments = highlightCode(source, code.lang?.split(/\s/)[0]);
	return (
		<Box flexDirection="column" paddingLeft={2}>
			{code.lang ? <Text dimColor>{sanitizeTerminalText(code.lang)}</Text> : null}
			<Text>
				{segments
					? segments.map((s, i) => (
							// biome-ignore lint/suspicious/noArrayIndexKey: segments never reorder
							<Text key={i} color={color(s.color)}>
								{s.text}
							</Text>
						))
					: source}
			</Text>
		</Box>
	);
}

function renderBlock(t: Token, key: string): React.ReactNode {
	switch (t.type) {
		case "heading": {
			const h = t as Tokens.Heading;
			return (
				<Text key={key} bold color={color(theme.heading)}>
					{h.depth <= 2 ? "" : `${"#".repeat(h.depth)} `}
					{renderInline(h.tokens, key)}
				</Text>
			);
		}
		case "paragraph":
			return <Text key={key}>{renderInline((t as Tokens.Paragraph).tokens, key)}</Text>;
		case "code":
			return <CodeBlock key={key} code={t as Tokens.Code} />;
		case "list": {
			const list = t as Tokens.List;
			const start = typeof list.start === "number" ? list.start : 1;
			return (
				<Box key={key} flexDirection="column">
					{list.items.map((item, i) => (
						<Box key={`${key}.${i}`}>
							<Text>{list.ordered ? `${start + i}. ` : "• "}</Text>
							<Box flexDirection="column">{item.tokens.map((c, j) => renderBlock(c, `${key}.${i}.${j}`))}</Box>
						</Box>
					))}
				</Box>
			);
		}
		case "blockquote":
			return (
				<Box key={key} flexDirection="column" paddingLeft={2}>
					{(t as Tokens.Blockquote).tokens.map((c, i) => (
						<Text key={`${key}.${i}`} dimColor>
							{"│ "}
							{renderBlock(c, `${key}.${i}`)}
						</Text>
					))}
				</Box>
			);
		case "hr":
			return (
				<Text key={key} dimColor>
					{"─".repeat(20)}
				</Text>
			);
		case "space":
			return null;
		case "text": {
			const text = t as Tokens.Text;
			return <Text key={key}>{text.tokens ? renderInline(text.tokens, key) : sanitizeTerminalText(text.text)}</Text>;
		}
		default:
			return <Text key={key}>{sanitizeTerminalText(t.raw.replace(/\n+$/, ""))}</Text>;
	}
}

/** A closed block of assistant markdown. Memoised: a block never changes once closed. */
export const MarkdownBlock = React.memo(function MarkdownBlock({ source }: { source: string }) {
	const tokens = lexer(sanitizeTerminalText(source));
	return <Box flexDirection="column">{tokens.map((t, i) => renderBlock(t, String(i)))}</Box>;
});
