/**
 * The SVG a logo may be: resvg draws it into every PNG of its code, so only a subset that draws
 * in bounded time is stored. Shapes, paths, groups, gradients, clip paths, `<use>` within the
 * logo, text and `<style>`; no filters (elements, the `filter` attribute or CSS property), no
 * images, scripts, links, foreign objects, patterns, masks or markers; every reference (`href`,
 * `url(…)`) points inside the logo (`#id`); no DOCTYPE declarations (entities); at most 2,000
 * elements with every `<use>` expanded, 32 deep; a root size and viewBox of bounded numbers.
 * A strict tokenizer of its own (no dependency): anything it does not know is refused, so what
 * it passes is what resvg reads.
 */

export const SVG_LOGO_LIMITS = {
  /** Elements, each `<use>` counted with what it shows. */
  elements: 2000,
  /** Nesting depth of elements. */
  depth: 32,
  /** The root's width and height (in their unit). */
  side: 10_000,
  /** Each number of the root's viewBox, in absolute value. */
  viewBox: 1_000_000,
} as const

const SVG_NS = 'http://www.w3.org/2000/svg'
const XLINK_NS = 'http://www.w3.org/1999/xlink'
const XML_NS = 'http://www.w3.org/XML/1998/namespace'
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/'

/** The SVG elements a logo may hold. Anything else in the SVG namespace is refused. */
const ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'title',
  'desc',
  'metadata',
  'style',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'text',
  'tspan',
])

/** Presentation attributes (and CSS properties) a logo may set: painting, text, display. */
const PRESENTATION = [
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'opacity',
  'color',
  'display',
  'visibility',
  'overflow',
  'clip-path',
  'clip-rule',
  'shape-rendering',
  'text-rendering',
  'color-rendering',
  'color-interpolation',
  'vector-effect',
  'paint-order',
  'stop-color',
  'stop-opacity',
  'mix-blend-mode',
  'isolation',
  'enable-background',
  'font',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant',
  'font-stretch',
  'text-anchor',
  'text-decoration',
  'dominant-baseline',
  'alignment-baseline',
  'baseline-shift',
  'letter-spacing',
  'word-spacing',
  'writing-mode',
  'direction',
  'unicode-bidi',
]

/** Attributes without a namespace a logo's SVG elements may carry (plus `data-*`). */
const ATTRIBUTES = new Set([
  ...PRESENTATION,
  'id',
  'class',
  'style',
  'lang',
  'version',
  'baseProfile',
  'type',
  'media',
  'x',
  'y',
  'width',
  'height',
  'viewBox',
  'preserveAspectRatio',
  'transform',
  'd',
  'pathLength',
  'rx',
  'ry',
  'cx',
  'cy',
  'r',
  'x1',
  'y1',
  'x2',
  'y2',
  'points',
  'fx',
  'fy',
  'fr',
  'offset',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'clipPathUnits',
  'href',
  'dx',
  'dy',
  'rotate',
  'textLength',
  'lengthAdjust',
])

/** CSS properties never allowed in a `style` attribute or element (they draw filters or other files). */
const CSS_REFUSED = new Set([
  'filter',
  'backdrop-filter',
  'mask',
  'mask-image',
  'marker',
  'marker-start',
  'marker-mid',
  'marker-end',
])

/** Why an SVG logo is refused (the caller puts it in a 400 on `style.logo`). */
export class SvgLogoError extends Error {}

const refuse = (message: string): never => {
  throw new SvgLogoError(message)
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

/** Text with its character and the five predefined entity references resolved; others refused. */
function decodeText(text: string): string {
  return text.replace(/&([^;&\s]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) refuse('is not well-formed SVG: an & that starts no reference')
    if (ref in ENTITIES) return ENTITIES[ref]!
    const code = /^#x([0-9a-fA-F]{1,6})$/.exec(ref)?.[1] ?? /^#([0-9]{1,7})$/.exec(ref)?.[1]
    if (code !== undefined) {
      const n = parseInt(code, ref[1] === 'x' ? 16 : 10)
      if (n > 0 && n <= 0x10ffff) return String.fromCodePoint(n)
    }
    return refuse(
      `uses the entity &${ref};, which logos may not (only &lt; &gt; &amp; &quot; &apos; and numeric ones)`,
    )
  })
}

/** A reference (`url(…)`) in a value or style sheet must name something in the logo (`#id`). */
function checkUrls(value: string, where: string): void {
  for (const m of value.matchAll(/url\s*\(\s*(['"]?)\s*([^)'"]*)/gi))
    if (!m[2]!.startsWith('#'))
      refuse(`has url(${m[2]!.slice(0, 60)}) in ${where}: a logo refers only to its own parts (url(#id))`)
}

/** CSS of a `style` attribute or element: no refused property, no escapes or imports, local urls. */
function checkCss(css: string, where: string): void {
  if (css.includes('\\')) refuse(`has a backslash escape in ${where}, which logos may not use`)
  const plain = css.replace(/\/\*[\s\S]*?\*\//g, ' ')
  if (/@(import|font-face)/i.test(plain)) refuse(`has an @import or @font-face rule in ${where}`)
  for (const text of [css, plain]) {
    checkUrls(text, where)
    for (const m of text.matchAll(/([-a-zA-Z]+)\s*:/g))
      if (CSS_REFUSED.has(m[1]!.toLowerCase()))
        refuse(`sets ${m[1]!.toLowerCase()} in ${where}; logos may not use filters, masks or markers`)
  }
}

const NUMBER = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(px|pt|pc|mm|cm|in|em|ex|%)?\s*$/

/** The root's width, height and viewBox: numbers within bounds (the size resvg draws at first). */
function checkRootSize(attrs: Map<string, string>): void {
  for (const side of ['width', 'height']) {
    const value = attrs.get(side)
    if (value === undefined) continue
    const n = Number(NUMBER.exec(value)?.[1] ?? NaN)
    if (!(n > 0 && n <= SVG_LOGO_LIMITS.side))
      refuse(
        `has ${side}="${value.slice(0, 40)}"; it must be a number above 0 and at most ${SVG_LOGO_LIMITS.side}`,
      )
  }
  const viewBox = attrs.get('viewBox')
  if (viewBox === undefined) return
  const parts = viewBox
    .trim()
    .split(/[\s,]+/)
    .map(Number)
  const [, , w, h] = parts
  if (
    parts.length !== 4 ||
    parts.some((n) => !Number.isFinite(n) || Math.abs(n) > SVG_LOGO_LIMITS.viewBox) ||
    !(w! > 0 && h! > 0)
  )
    refuse(
      `has viewBox="${viewBox.slice(0, 60)}"; it must be four numbers of at most ${SVG_LOGO_LIMITS.viewBox} with a width and height above 0`,
    )
}

interface Node {
  svg: boolean
  name: string
  /** The `#id` a `<use>` shows. */
  uses?: string
  /** A `<style>` element's text (its text and CDATA pieces together, checked when it closes). */
  css?: string
  children: Node[]
}

const NAME = '[A-Za-z_][-A-Za-z0-9_.]*(?::[A-Za-z_][-A-Za-z0-9_.]*)?'
const OPEN = new RegExp(`<(${NAME})`, 'y')
const ATTR = new RegExp(`\\s+(${NAME})\\s*=\\s*(?:"([^"<]*)"|'([^'<]*)')`, 'y')
const OPEN_END = /\s*(\/?)>/y
const CLOSE = new RegExp(`</(${NAME})\\s*>`, 'y')

const splitName = (name: string): [string, string] => {
  const colon = name.indexOf(':')
  return colon === -1 ? ['', name] : [name.slice(0, colon), name.slice(colon + 1)]
}

/** Refuses (SvgLogoError) an SVG logo outside the subset described above. */
export function checkSvgLogo(data: Buffer): void {
  let s = data.toString('utf8')
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1)
  const stack: Array<{ name: string; node: Node; scope: Map<string, string> }> = []
  const ids = new Map<string, Node>()
  let root: Node | undefined
  let i = 0
  const text = (t: string, raw: boolean) => {
    const value = raw ? t : decodeText(t)
    const top = stack.at(-1)
    if (!top) {
      if (value.trim() !== '') refuse('is not well-formed SVG: text outside the <svg> element')
      return
    }
    if (top.node.svg && top.node.name === 'style') top.node.css = (top.node.css ?? '') + value
  }
  while (i < s.length) {
    const lt = s.indexOf('<', i)
    if (lt === -1) {
      text(s.slice(i), false)
      break
    }
    if (lt > i) text(s.slice(i, lt), false)
    i = lt
    const until = (end: string, what: string) => {
      const at = s.indexOf(end, i)
      if (at === -1) refuse(`is not well-formed SVG: an unterminated ${what}`)
      return at
    }
    if (s.startsWith('<!--', i)) {
      i = until('-->', 'comment') + 3
    } else if (s.startsWith('<![CDATA[', i)) {
      const end = until(']]>', 'CDATA section')
      text(s.slice(i + 9, end), true)
      i = end + 3
    } else if (s.startsWith('<!DOCTYPE', i)) {
      const end = until('>', 'DOCTYPE')
      if (s.slice(i, end).includes('[') || root)
        refuse('has a DOCTYPE with declarations, which logos may not')
      i = end + 1
    } else if (s.startsWith('<?', i)) {
      const end = until('?>', 'processing instruction')
      if (!/^<\?xml\s/.test(s.slice(i, end + 2)) || s.slice(0, i).trim() !== '')
        refuse('has a processing instruction, which logos may not')
      i = end + 2
    } else if (s.startsWith('</', i)) {
      CLOSE.lastIndex = i
      const m = CLOSE.exec(s) ?? refuse('is not well-formed SVG: a malformed closing tag')
      const top = stack.pop()
      if (!top || top.name !== m[1]) refuse(`is not well-formed SVG: </${m[1]}> closes nothing open`)
      if (top!.node.css !== undefined) checkCss(top!.node.css, '<style>')
      i = CLOSE.lastIndex
    } else {
      OPEN.lastIndex = i
      const m = OPEN.exec(s) ?? refuse('is not well-formed SVG: a malformed tag')
      const name = m[1]!
      const attrs = new Map<string, string>()
      let at = OPEN.lastIndex
      for (;;) {
        ATTR.lastIndex = at
        const a = ATTR.exec(s)
        if (!a) break
        if (attrs.has(a[1]!)) refuse(`is not well-formed SVG: attribute ${a[1]} given twice on <${name}>`)
        attrs.set(a[1]!, decodeText(a[2] ?? a[3]!))
        at = ATTR.lastIndex
      }
      OPEN_END.lastIndex = at
      const end = OPEN_END.exec(s) ?? refuse(`is not well-formed SVG: a malformed <${name}> tag`)
      i = OPEN_END.lastIndex
      if (root && stack.length === 0) refuse('is not well-formed SVG: more than one root element')
      const parent = stack.at(-1)
      const scope = new Map(parent?.scope ?? [['xml', XML_NS]])
      for (const [k, v] of attrs) {
        const [prefix, local] = splitName(k)
        if (prefix === 'xmlns') scope.set(local, v)
        else if (k === 'xmlns') scope.set('', v)
      }
      const [prefix, local] = splitName(name)
      const ns =
        scope.get(prefix) ??
        (prefix ? refuse(`is not well-formed SVG: prefix ${prefix} is not declared`) : '')
      const node: Node = { svg: ns === SVG_NS, name: local, children: [] }
      if (!root) {
        if (!node.svg || local !== 'svg')
          refuse('is not an SVG image: its root must be <svg xmlns="http://www.w3.org/2000/svg">')
        checkRootSize(attrs)
        root = node
      }
      if (node.svg && !ELEMENTS.has(local))
        refuse(
          `has a <${local}> element; logos may hold shapes, paths, groups, gradients, clip paths, <use> and text (no filters, images, scripts, links or foreign content)`,
        )
      for (const [k, v] of attrs) {
        const [aPrefix, aLocal] = splitName(k)
        const aNs = k === 'xmlns' || aPrefix === 'xmlns' ? XMLNS_NS : aPrefix ? scope.get(aPrefix) : ''
        if (aNs === undefined) refuse(`is not well-formed SVG: prefix ${aPrefix} is not declared`)
        if (aLocal === 'href') {
          if (!/^#\S*$/.test(v.trim()))
            refuse(`has href="${v.slice(0, 60)}" on <${local}>: a logo refers only to its own parts (#id)`)
          if (node.svg && local === 'use') node.uses = v.trim().slice(1)
          if (aNs === SVG_NS || aNs === '' || aNs === XLINK_NS) continue
        }
        checkUrls(v, `${k} on <${local}>`)
        if (aNs === XMLNS_NS || aNs === XML_NS) {
          if (aNs === XML_NS && aLocal === 'base') refuse('has xml:base, which logos may not use')
          continue
        }
        if (aNs !== '' && aNs !== SVG_NS) continue // another vocabulary's attribute: resvg ignores it
        if (!node.svg) continue
        if (aLocal === 'style') checkCss(v, `the style of <${local}>`)
        else if (!ATTRIBUTES.has(aLocal) && !aLocal.startsWith('data-'))
          refuse(`has the attribute ${aLocal} on <${local}>, which logos may not use`)
      }
      const id = attrs.get('id')
      if (id !== undefined && !ids.has(id)) ids.set(id, node)
      parent?.node.children.push(node)
      if (end[1] !== '/') {
        stack.push({ name, node, scope })
        if (stack.length > SVG_LOGO_LIMITS.depth)
          refuse(`nests elements more than ${SVG_LOGO_LIMITS.depth} deep`)
      }
    }
  }
  if (!root) refuse('is not an SVG image')
  if (stack.length) refuse(`is not well-formed SVG: <${stack.at(-1)!.name}> is not closed`)
  countElements(root!, ids)
}

/** Elements drawn with every `<use>` expanded; refuses a `<use>` cycle or more than the limit. */
function countElements(root: Node, ids: Map<string, Node>): void {
  const sizes = new Map<Node, number>()
  const visiting = new Set<Node>()
  const size = (node: Node): number => {
    const known = sizes.get(node)
    if (known !== undefined) return known
    if (visiting.has(node)) return refuse('has a <use> that shows itself')
    visiting.add(node)
    let n = 1
    for (const child of node.children) n += size(child)
    const target = node.uses === undefined ? undefined : ids.get(node.uses)
    if (target) n += size(target)
    visiting.delete(node)
    // Capped, so a fan-out of <use> stays a small number while it is counted.
    n = Math.min(n, SVG_LOGO_LIMITS.elements + 1)
    sizes.set(node, n)
    return n
  }
  if (size(root) > SVG_LOGO_LIMITS.elements)
    refuse(`has more than ${SVG_LOGO_LIMITS.elements} elements (each <use> counted with what it shows)`)
}
