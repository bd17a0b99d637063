// One HTTP(S) GET for web_fetch, with the address check on the connection itself: the name is
// resolved, every address checked, and the socket opened to a checked address (a custom `lookup`), so
// a DNS answer that changes between a check and the connect (rebinding) cannot reach a refused one.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { createRequire } from "node:module";
import { isIP, type LookupFunction, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { refusedAddress } from "./web-address.js";
import { proxyAuthorization } from "./web-proxy.js";

export interface WebResponse {
	status: number;
	headers: IncomingHttpHeaders;
	body: Buffer;
	/** The body was longer than the cap: `body` is its start. */
	capped: boolean;
}

export interface WebRequestOptions {
	/** Largest body read (after decompression). */
	maxBytes: number;
	/** Private, loopback and metadata addresses may be reached (an allow rule names the host). */
	allowPrivate: boolean;
	signal: AbortSignal;
	/**
	 * An http:// proxy to go through (web-proxy.ts). The target's address is still checked here, and the
	 * proxy is asked for that checked address (CONNECT to it for https, with the name for TLS), so a
	 * proxy is no way around the check, nor a second DNS answer (rebinding) at the proxy.
	 */
	proxy?: URL;
}

/** A refusal of the address check, told apart from network failures. */
export class RefusedAddressError extends Error {}

/** `lookup` for http.request: resolves, refuses if any address is refused, connects to a checked one. */
function checkedLookup(allowPrivate: boolean): LookupFunction {
	return (hostname, options, callback) => {
		dnsLookup(hostname, { all: true, family: options.family }, (error, addresses: LookupAddress[]) => {
			if (error) return callback(error, "", 0);
			const refused = allowPrivate ? undefined : addresses.find((a) => refusedAddress(a.address) !== undefined);
			if (refused) {
				const why = `${hostname} resolves to ${refused.address}, which is ${refusedAddress(refused.address)}`;
				return callback(new RefusedAddressError(why), "", 0);
			}
			if (addresses.length === 0) return callback(new Error(`${hostname} has no address`), "", 0);
			if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
			callback(null, addresses[0].address, addresses[0].family);
		});
	};
}

/** The checked address to connect to for `host` (the lookup above, as a promise). */
function checkedAddress(host: string, allowPrivate: boolean): Promise<LookupAddress> {
	if (isIP(host) !== 0) return Promise.resolve({ address: host, family: isIP(host) });
	return new Promise((resolve, reject) =>
		checkedLookup(allowPrivate)(host, { all: false }, (error, address, family) =>
			error ? reject(error) : resolve({ address: address as string, family: family as number }),
		),
	);
}

/** `address:port` as a request target names it (an IPv6 address in brackets). */
function authority(address: string, port: number): string {
	return `${address.includes(":") ? `[${address}]` : address}:${port}`;
}

/** A TLS connection to `url`'s host, through a CONNECT tunnel the proxy opens to the checked `address`. */
function tunnel(url: URL, address: string, proxy: URL, signal: AbortSignal): Promise<Socket> {
	const port = Number(url.port) || 443;
	return new Promise((resolve, reject) => {
		const target = authority(address, port);
		const req = httpRequest({
			host: proxy.hostname.replace(/^\[|\]$/g, ""),
			port: Number(proxy.port) || 80,
			method: "CONNECT",
			path: target,
			headers: { host: target, ...proxyAuthorization(proxy) },
			signal,
		});
		req.on("connect", (response, socket) => {
			if (response.statusCode !== 200) {
				socket.destroy();
				return reject(new Error(`the proxy ${proxy.host} refused the tunnel (HTTP ${response.statusCode})`));
			}
			const servername = url.hostname.replace(/^\[|\]$/g, "");
			// Certificates are checked against the name, as without a proxy.
			resolve(tlsConnect({ socket, servername: isIP(servername) ? undefined : servername, ALPNProtocols: ["http/1.1"] }));
		});
		req.on("error", (error) => reject(new Error(`the proxy ${proxy.host} could not be reached (${error.message})`)));
		req.end();
	});
}

/** node:zlib, loaded with the first compressed body instead of at start-up (~0.8 ms of every launch). */
const zlib = (): typeof import("node:zlib") => createRequire(import.meta.url)("node:zlib");

/** The body, decompressed as the server says it is encoded. */
function decoded(response: IncomingMessage): NodeJS.ReadableStream {
	const encoding = String(response.headers["content-encoding"] ?? "")
		.toLowerCase()
		.trim();
	if (encoding === "gzip" || encoding === "x-gzip") return response.pipe(zlib().createGunzip());
	if (encoding === "deflate") return response.pipe(zlib().createInflate());
	if (encoding === "br") return response.pipe(zlib().createBrotliDecompress());
	return response;
}

/** GET `url` once (no redirects followed: the caller decides), reading at most `maxBytes` of body. */
export function getOnce(url: URL, options: WebRequestOptions): Promise<WebResponse> {
	const host = url.hostname.replace(/^\[|\]$/g, "");
	if (isIP(host) !== 0 && !options.allowPrivate) {
		// A literal address is connected to without a lookup: check it here.
		const refused = refusedAddress(host);
		if (refused) return Promise.reject(new RefusedAddressError(`${host} is ${refused}`));
	}
	if (options.proxy) return viaProxy(url, options, options.proxy);
	return send(url, options, { lookup: checkedLookup(options.allowPrivate) });
}

/** Through the proxy: the target's address checked first; https tunnelled to it, http asked of the proxy for it. */
async function viaProxy(url: URL, options: WebRequestOptions, proxy: URL): Promise<WebResponse> {
	const host = url.hostname.replace(/^\[|\]$/g, "");
	const { address } = await checkedAddress(host, options.allowPrivate);
	if (url.protocol === "https:") {
		const socket = await tunnel(url, address, proxy, options.signal);
		return send(url, options, { createConnection: () => socket });
	}
	// Absolute form to the proxy, naming the checked address; the Host header keeps the name.
	const target = new URL(url.href);
	target.hostname = address.includes(":") ? `[${address}]` : address;
	return send(url, options, {
		host: proxy.hostname.replace(/^\[|\]$/g, ""),
		port: Number(proxy.port) || 80,
		path: target.href,
		headers: { host: url.host, ...proxyAuthorization(proxy) },
	});
}

type SendOptions = {
	lookup?: LookupFunction;
	createConnection?: () => Socket;
	host?: string;
	port?: number;
	path?: string;
	headers?: Record<string, string>;
};

function send(url: URL, options: WebRequestOptions, how: SendOptions): Promise<WebResponse> {
	// To the proxy (absolute form) it is a plain http request, whatever the target's scheme.
	const request = url.protocol === "https:" && how.host === undefined ? httpsRequest : httpRequest;
	const { headers: extraHeaders, ...where } = how;
	return new Promise((resolve, reject) => {
		const req = request(
			// Through the proxy, host, port and path say where (the URL would override them).
			how.host === undefined ? url : new URL(`http://${authority(how.host, how.port ?? 80)}`),
			{
				method: "GET",
				...where,
				signal: options.signal,
				headers: {
					"user-agent": "Rudder web_fetch (+https://github.com/rudder)",
					accept: "text/html, text/markdown, text/plain, application/json, */*;q=0.5",
					"accept-encoding": "gzip, deflate, br",
					...extraHeaders,
				},
			},
			(response) => {
				const status = response.statusCode ?? 0;
				if (status >= 300 && status < 400) {
					response.resume();
					return resolve({ status, headers: response.headers, body: Buffer.alloc(0), capped: false });
				}
				const chunks: Buffer[] = [];
				let size = 0;
				let capped = false;
				const body = decoded(response);
				const finish = () => resolve({ status, headers: response.headers, body: Buffer.concat(chunks), capped });
				body.on("data", (chunk: Buffer) => {
					if (capped) return;
					const room = options.maxBytes - size;
					chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
					size += Math.min(chunk.length, room);
					if (chunk.length >= room) {
						// Enough read: stop the transfer instead of draining (a 50 MB page costs 5 MB).
						capped = true;
						req.destroy();
						finish();
					}
				});
				body.on("end", finish);
				body.on("error", (error) => (capped ? undefined : reject(error)));
				response.on("error", (error) => (capped ? undefined : reject(error)));
			},
		);
		req.on("error", reject);
		req.end();
	});
}
