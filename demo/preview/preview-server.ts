import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIEmbed } from 'discord.js';

import type { MarkdownContext, MentionDirectory } from './markdown.js';
import { continuesGroup, listedFiles, renderMessage, type PreviewMessage } from './render-message.js';

/** A channel the preview shows; `routed` channels are the ones the feed posts to. */
export interface PreviewChannel {
  id: string;
  name: string;
  routed: boolean;
}

/** What the preview reads: the guild as the fake Discord holds it, read-only. */
export interface PreviewSource {
  guildName: string;
  channels(): readonly PreviewChannel[];
  /** A channel's visible messages, oldest first. */
  messages(channelId: string): readonly PreviewMessage[];
  directory: MentionDirectory;
}

export interface PreviewServerOptions {
  source: PreviewSource;
  /** Default 0: any free port. Always on 127.0.0.1. */
  port?: number;
  /** Merged into GET /api/status (e.g. the intake's address). */
  status?: () => Record<string, unknown>;
  /** How often the fake's state is checked for new messages; default 250 ms. */
  pollMs?: number;
  /** Time zone of rendered times; default the process's own (the demo runs where it is watched). */
  timeZone?: string;
  /** Where the files messages carry are served (the fake Discord's address): the page may load images from it. */
  imageOrigin?: string;
}

export interface PreviewServer {
  url: string;
  close(): Promise<void>;
}

/** Only the latest messages of a channel are drawn: a demo left running for hours must stay light. */
export const MAX_MESSAGES_PER_CHANNEL = 50;
const HEARTBEAT_MS = 15_000;

const STATIC_FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/preview.css': { file: 'preview.css', type: 'text/css; charset=utf-8' },
  '/preview.js': { file: 'preview.js', type: 'text/javascript; charset=utf-8' },
};

/**
 * Scripts only from here; no framing, no plugins. Inline style attributes carry embed colours and the field
 * grid, all computed from numbers, never from embed text.
 */
/** The headers of every answer; images may also come from `imageOrigin` (the files messages carry). */
function securityHeaders(imageOrigin: string | undefined) {
  const images = imageOrigin === undefined ? '' : ` ${imageOrigin}`;
  return {
    'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:${images}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

interface ChannelView extends PreviewChannel {
  messages: number;
  embeds: number;
}

/**
 * Serves the preview page: the fake Discord's channels drawn the way Discord draws them, kept live with
 * Server-Sent Events. Plain node:http, static HTML/CSS/JS, every piece of embed text escaped on the way out.
 */
export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const { source } = options;
  const securedBy = securityHeaders(options.imageOrigin);
  const files = new Map(
    Object.entries(STATIC_FILES).map(([path, { file, type }]) => [
      path,
      { body: readFileSync(new URL(`./public/${file}`, import.meta.url)), type },
    ]),
  );
  const clients = new Set<ServerResponse>();
  const signatures = new Map<string, string>();

  const context = (): MarkdownContext => ({
    directory: source.directory,
    now: Date.now(),
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
  });
  const view = (channel: PreviewChannel): ChannelView => {
    const messages = source.messages(channel.id);
    return {
      ...channel,
      messages: messages.length,
      embeds: messages.reduce((sum, message) => sum + message.embeds.length, 0),
    };
  };
  const renderChannel = (channel: PreviewChannel) => {
    const ctx = context();
    // One piece of HTML per message: the page adds what is new and leaves what it already shows alone.
    const items = source
      .messages(channel.id)
      .slice(-MAX_MESSAGES_PER_CHANNEL)
      .map((message, index, shown) => ({
        id: message.id,
        html: renderMessage(message, ctx, continuesGroup(shown[index - 1], message)),
      }));
    return { ...view(channel), items };
  };
  const status = () => {
    const channels = source.channels().map(view);
    const routed = channels.filter((channel) => channel.routed);
    return {
      guild: source.guildName,
      flowing: routed.length > 0 && routed.every((channel) => channel.messages > 0),
      channels,
      ...options.status?.(),
    };
  };
  const send = (response: ServerResponse, event: string, data: unknown) => {
    response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const signature = (channelId: string) => {
    const messages = source.messages(channelId);
    const last = messages.at(-1);
    // Edits count too: a release card changes in place as its review moves.
    const edits = messages
      .slice(-MAX_MESSAGES_PER_CHANNEL)
      .map((message) => message.edited ?? '')
      .join(',');
    return `${messages.length}:${last?.id ?? ''}:${last?.embeds.length ?? 0}:${edits}`;
  };

  const poll = setInterval(() => {
    if (clients.size === 0) return;
    let changed = false;
    for (const channel of source.channels()) {
      const now = signature(channel.id);
      if (signatures.get(channel.id) === now) continue;
      signatures.set(channel.id, now);
      changed = true;
      const rendered = renderChannel(channel);
      for (const client of clients) send(client, 'channel', rendered);
    }
    if (changed) {
      const current = status();
      for (const client of clients) send(client, 'status', current);
    }
  }, options.pollMs ?? 250);
  const heartbeat = setInterval(() => {
    for (const client of clients) client.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);

  const openEvents = (request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, {
      ...securedBy,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    // The guild first, then every channel as it is now; later only what changed.
    send(response, 'guild', { name: source.guildName, channels: source.channels() });
    // The poll's signatures stay as they are: other clients may not have seen the latest change yet.
    for (const channel of source.channels()) send(response, 'channel', renderChannel(channel));
    send(response, 'status', status());
    clients.add(response);
    request.on('close', () => clients.delete(response));
  };

  const json = (response: ServerResponse, body: unknown) => {
    response.writeHead(200, { ...securedBy, 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://preview.invalid').pathname;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...securedBy, allow: 'GET, HEAD' }).end();
      return;
    }
    const file = files.get(path);
    if (file) {
      response.writeHead(200, { ...securedBy, 'content-type': file.type });
      response.end(request.method === 'HEAD' ? undefined : file.body);
      return;
    }
    switch (path) {
      case '/api/events':
        return openEvents(request, response);
      case '/api/status':
        return json(response, status());
      case '/api/messages':
        return json(
          response,
          source.channels().map((channel) => ({
            ...channel,
            messages: source
              .messages(channel.id)
              .map((message): { id: string; content: string; embeds: readonly APIEmbed[]; files: string[] } => ({
                id: message.id,
                content: message.content,
                embeds: message.embeds,
                // The files listed under the message, by name (an embed's image is drawn, not listed).
                files: listedFiles(message).map(([name]) => name),
              })),
          })),
        );
      default:
        response.writeHead(404, { ...securedBy, 'content-type': 'text/plain; charset=utf-8' }).end('not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(poll);
        clearInterval(heartbeat);
        for (const client of clients) client.end();
        clients.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
