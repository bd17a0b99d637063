// web_fetch through an HTTP proxy (HTTPS_PROXY / HTTP_PROXY / NO_PROXY): a small proxy on 127.0.0.1
// speaking absolute-form requests and CONNECT, and the address check still applied to the target, so
// the proxy is no way around it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createWebFetchTool } from "../../src/tools/web-fetch.js";
import { httpServersPerTest } from "../helpers/http-servers.js";

const { serve } = httpServersPerTest();
const extra: Server[] = [];
afterEach(async () => {
	for (const s of extra.splice(0)) {
		s.closeAllConnections();
		await new Promise((r) => s.close(r));
	}
});

/** A forward proxy: absolute-form GETs are relayed, CONNECT opens a tunnel; every request line is logged. */
async function startProxy(options: { refuseConnect?: boolean } = {}): Promise<{ url: string; log: string[] }> {
	const log: string[] = [];
	const proxy = createServer((req, res) => {
		log.push(`${req.method} ${req.url} host=${req.headers.host}`);
		const upstream = request(req.url as string, { method: req.method, headers: req.headers }, (up) => {
			res.writeHead(up.statusCode ?? 502, up.headers);
			up.pipe(res);
		});
		upstream.on("error", () => res.writeHead(502).end());
		upstream.end();
	});
	proxy.on("connect", (req, client) => {
		log.push(`CONNECT ${req.url}`);
		if (options.refuseConnect) return client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
		const [host, port] = (req.url as string).split(":");
		const upstream = connect(Number(port), host, () => {
			client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
			upstream.pipe(client);
			client.pipe(upstream);
		});
		upstream.on("error", () => client.destroy());
		client.on("error", () => upstream.destroy());
	});
	extra.push(proxy);
	await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
	return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, log };
}

let certDir: string;
beforeAll(() => {
	certDir = mkdtempSync(join(tmpdir(), "rudder-proxy-cert-"));
	execFileSync(
		"openssl",
		["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"].concat([
			"-keyout",
			join(certDir, "key.pem"),
			"-out",
			join(certDir, "cert.pem"),
		]),
		{ stdio: "ignore" },
	);
});
afterAll(() => rmSync(certDir, { recursive: true, force: true }));

const loopbackAllowed = (host: string): boolean => host === "127.0.0.1";
async function fetchVia(url: string, env: Record<string, string>, hostAllowed = loopbackAllowed) {
	const result = await createWebFetchTool({ hostAllowed, proxyEnv: env, timeoutMs: 10_000 }).execute("t", { url });
	return (result.content[0] as { text: string }).text;
}

describe("web_fetch through a proxy", { timeout: 30_000 }, () => {
	it("asks the proxy in absolute form for an http page, naming the checked address, the name kept as Host", async () => {
		const target = await serve((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("through the proxy"));
		const proxy = await startProxy();
		const text = await fetchVia(`${target}/page`, { HTTP_PROXY: proxy.url });
		expect(text).toContain("through the proxy");
		expect(proxy.log).toEqual([`GET ${target}/page host=${new URL(target).host}`]);
	});

	it("tunnels https with CONNECT to the checked address, and TLS still checks the certificate", async () => {
		const tls = createHttpsServer(
			{ key: readFileSync(join(certDir, "key.pem")), cert: readFileSync(join(certDir, "cert.pem")) },
			(_req, res) => res.end("secret"),
		);
		extra.push(tls);
		await new Promise<void>((r) => tls.listen(0, "127.0.0.1", r));
		const port = (tls.address() as AddressInfo).port;
		const proxy = await startProxy();
		await expect(fetchVia(`https://127.0.0.1:${port}/`, { HTTPS_PROXY: proxy.url })).rejects.toThrow(/self[- ]signed certificate/);
		expect(proxy.log).toEqual([`CONNECT 127.0.0.1:${port}`]);
		const refusing = await startProxy({ refuseConnect: true });
		await expect(fetchVia(`https://127.0.0.1:${port}/`, { HTTPS_PROXY: refusing.url })).rejects.toThrow(
			`the proxy ${new URL(refusing.url).host} refused the tunnel (HTTP 403)`,
		);
	});

	it("refuses loopback, a name resolving to it and the metadata address before the proxy hears of them", async () => {
		const target = await serve((_req, res) => res.end("private"));
		const proxy = await startProxy();
		const env = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url };
		const none = () => false;
		await expect(fetchVia(`${target}/`, env, none)).rejects.toThrow(/refused: 127\.0\.0\.1 is loopback/);
		await expect(fetchVia(`http://localhost:${new URL(target).port}/`, env, none)).rejects.toThrow(/refused: localhost resolves to/);
		await expect(fetchVia("http://169.254.169.254/latest/meta-data/", env, none)).rejects.toThrow(/refused: 169\.254\.169\.254/);
		await expect(fetchVia("https://[::1]:9/", env, none)).rejects.toThrow(/refused: ::1/);
		expect(proxy.log).toEqual([]);
	});

	it("goes direct for a host NO_PROXY names", async () => {
		const target = await serve((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("direct"));
		const proxy = await startProxy();
		expect(await fetchVia(`${target}/`, { HTTP_PROXY: proxy.url, NO_PROXY: "localhost,127.0.0.1" })).toContain("direct");
		expect(proxy.log).toEqual([]);
	});

	it("says so in one line when the proxy cannot be reached or is not an http:// proxy", async () => {
		await expect(fetchVia("http://127.0.0.1:9/", { HTTP_PROXY: "http://127.0.0.1:1" })).rejects.toThrow(
			/^web_fetch: http:\/\/127\.0\.0\.1:9\/: /,
		);
		await expect(fetchVia("https://example.com/", { HTTPS_PROXY: "socks5://127.0.0.1:1080" })).rejects.toThrow(
			/^web_fetch: HTTPS_PROXY is socks5:\/\/127\.0\.0\.1:1080; only an http:\/\/ proxy is supported$/,
		);
	});
});
