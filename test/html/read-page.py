#!/usr/bin/env python3
"""Reads a written web page back with Python's own HTML parser (independent of the writer) and
prints what the tests check as JSON: the root's lang/dir, every element with its attributes, the
headings, the tables (caption, header cells, rows of cells with their attributes and text), the
inline style and script texts exactly as the file holds them, and the whole visible text."""
import json
import sys
from html.parser import HTMLParser

VOID = {'meta', 'link', 'img', 'input', 'br', 'hr', 'source', 'area', 'base', 'col', 'embed', 'param', 'track', 'wbr'}


class Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = []
        self.stack = []
        self.text = []
        self.headings = []
        self.tables = []
        self.style = []
        self.script = []
        self.raw_mode = None
        self.heading = None
        self.cell = None
        self.row = None
        self.caption = None
        self.ids = {}
        self.doctype = None

    def handle_decl(self, decl):
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append({'tag': tag, 'attrs': attrs})
        if tag in ('style', 'script'):
            self.raw_mode = tag
            getattr(self, tag).append('')
        if tag in ('h1', 'h2', 'h3', 'h4'):
            self.heading = [tag, '']
        if tag == 'table':
            self.tables.append({'id': a.get('id'), 'caption': '', 'head': [], 'rows': [], 'foot': [], 'part': None})
        if tag in ('thead', 'tbody', 'tfoot') and self.tables:
            self.tables[-1]['part'] = tag
        if tag == 'caption':
            self.caption = ''
        if tag == 'tr' and self.tables:
            self.row = []
        if tag in ('td', 'th') and self.row is not None:
            self.cell = {'tag': tag, 'attrs': a, 'text': ''}
        if 'id' in a:
            self.ids[a['id']] = ''
            self.stack.append((tag, a['id']))
        elif tag not in VOID:
            self.stack.append((tag, None))

    def handle_endtag(self, tag):
        if tag in ('style', 'script'):
            self.raw_mode = None
        if tag in ('h1', 'h2', 'h3', 'h4') and self.heading:
            self.headings.append([self.heading[0], self.heading[1].strip()])
            self.heading = None
        if tag == 'caption' and self.caption is not None:
            self.tables[-1]['caption'] = self.caption.strip()
            self.caption = None
        if tag in ('td', 'th') and self.cell is not None:
            self.cell['text'] = self.cell['text'].strip()
            self.row.append(self.cell)
            self.cell = None
        if tag == 'tr' and self.row is not None:
            t = self.tables[-1]
            {'thead': t['head'], 'tfoot': t['foot']}.get(t['part'], t['rows']).append(self.row)
            self.row = None
        while self.stack:
            top, _ = self.stack.pop()
            if top == tag:
                break

    def handle_data(self, data):
        if self.raw_mode:
            getattr(self, self.raw_mode)[-1] += data
            return
        self.text.append(data)
        if self.heading:
            self.heading[1] += data
        if self.caption is not None:
            self.caption += data
        if self.cell is not None:
            self.cell['text'] += data
        for _, i in self.stack:
            if i:
                self.ids[i] += data


r = Reader()
r.feed(open(sys.argv[1], encoding='utf-8').read())
r.close()
root = next((e for e in r.elements if e['tag'] == 'html'), {'attrs': []})
print(json.dumps({
    'doctype': r.doctype,
    'lang': dict(root['attrs']).get('lang'),
    'dir': dict(root['attrs']).get('dir'),
    'elements': r.elements,
    'headings': r.headings,
    'tables': r.tables,
    'style': r.style,
    'script': r.script,
    'text': ''.join(r.text),
    'ids': r.ids,
}, ensure_ascii=False))
