import { chromium } from 'playwright-core';

import { findChromium } from '../../../helpers/find-chromium.js';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];

/** What a browser makes of an HTML file: its parsed document, and every request it made while showing it. */
export interface InspectedHtml {
  /** The text a reader sees, as the browser lays it out. */
  text: string;
  /** The second-level headings, in order: the file's parts. */
  headings: string[];
  /** How many script elements the document has. */
  scripts: number;
  /** Every attribute of every element whose name begins with "on" (an event handler), as `tag@name`. */
  handlers: string[];
  /** Every attribute that makes the browser load or open something, as `tag@name=value`, with the element's text. */
  addresses: Array<{ element: string; attribute: string; value: string; text: string }>;
  /** Every request the page made while it was opened and shown (the file itself is given, not fetched). */
  requests: string[];
}

/** The page's document, as far as these checks need it (the project compiles without DOM types). */
interface PageElement {
  tagName: string;
  textContent: string;
  innerText: string;
  attributes: ArrayLike<{ name: string; value: string }>;
}
interface PageDocument {
  body: PageElement;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
}

/** The attributes that load or open an address (HTML's URL-valued attributes). */
const ADDRESS_ATTRIBUTES = [
  'href',
  'src',
  'srcset',
  'action',
  'formaction',
  'data',
  'poster',
  'background',
  'cite',
  'longdesc',
  'ping',
  'xlink:href',
];

/**
 * Opens `html` in Chromium (the parser a reader's browser has) as a file would be, every request it tries caught
 * and refused, and reads its document back.
 */
export async function inspectHtml(html: string): Promise<InspectedHtml> {
  const browser = await chromium.launch({ executablePath: await findChromium(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ javaScriptEnabled: true });
    const requests: string[] = [];
    await page.route('**/*', async (route) => {
      requests.push(route.request().url());
      await route.abort();
    });
    await page.setContent(html, { waitUntil: 'load' });
    // Long enough for anything deferred (a meta refresh, a lazy image) to try.
    await page.waitForTimeout(300);
    const read = await page.evaluate((attributes) => {
      const document = (globalThis as unknown as { document: PageDocument }).document;
      const elements = Array.from(document.querySelectorAll('*'));
      return {
        text: document.body.innerText,
        headings: Array.from(document.querySelectorAll('h2')).map((h2) => h2.textContent),
        scripts: document.querySelectorAll('script').length,
        handlers: elements.flatMap((element) =>
          Array.from(element.attributes)
            .filter((attribute) => attribute.name.toLowerCase().startsWith('on'))
            .map((attribute) => `${element.tagName.toLowerCase()}@${attribute.name}`),
        ),
        addresses: elements.flatMap((element) =>
          Array.from(element.attributes)
            .filter((attribute) => attributes.includes(attribute.name.toLowerCase()))
            .map((attribute) => ({
              element: element.tagName.toLowerCase(),
              attribute: attribute.name,
              value: attribute.value,
              text: element.textContent,
            })),
        ),
      };
    }, ADDRESS_ATTRIBUTES);
    return { ...read, requests };
  } finally {
    await browser.close();
  }
}
