import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless=new','--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 820 } });
await p.goto(process.argv[2]);
await p.waitForTimeout(6000);
await p.screenshot({ path: '/tmp/dux/story.png', fullPage: true });
await b.close();
