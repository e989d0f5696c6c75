import { chromium } from 'playwright-core';
import { startE2eApp } from './tests/helpers/e2e';
(async () => {
  const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu'] });
  const page = await b.newPage({ reducedMotion: 'reduce' });
  await page.goto(process.argv[2]!);
  await page.getByRole('banner').getByRole('button', { name: 'Login', exact: true }).waitFor();
  console.log(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches));
  await page.evaluate(() => {
    const motion = /\bant-[\w-]+-(appear|enter)\b/;
    const w = window as any; w.hits = [];
    const check = (node: Node) => { if (node instanceof Element) for (const el of [node, ...node.querySelectorAll('*')]) if (motion.test(el.className.toString())) w.hits.push(el.className.toString()); };
    new MutationObserver((rs) => { for (const r of rs) { check(r.target); r.addedNodes.forEach(check); } }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  });
  await page.getByRole('banner').getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByRole('dialog', { name: 'Log in' }).getByLabel('Email').waitFor();
  console.log(await page.evaluate(() => [...new Set((window as any).hits)]));
  await b.close();
})();
