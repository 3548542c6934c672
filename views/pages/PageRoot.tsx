import { useMemo } from 'react';
import { ShellLayout } from '../shell/ShellLayout';
import type { ShellData } from '../shell/shell-data';
import { createTranslate } from '../../src/shared/translate';
import { PAGES } from './registry';

/**
 * The root of every hydrated page, the same on both sides: the server renders it into the document
 * and the browser hydrates it from the same ShellData (client/main.tsx).
 */
export function PageRoot({ data }: { data: ShellData }) {
  const t = useMemo(() => createTranslate(data.messages), [data.messages]);
  const page = PAGES[data.page] ?? PAGES.error;
  if (!page) throw new Error(`no page named ${data.page}`);
  const { Component } = page;
  return (
    <ShellLayout data={data} t={t} header={page.header} footer={page.footer} guarded={page.guarded}>
      <Component data={data} t={t} />
    </ShellLayout>
  );
}
