/**
 * The SVG subset a QR logo may be (daemon/qr/svg-logo.ts): logos as design tools write them pass
 * and draw; filters, images, scripts, outside references, entity declarations, element bombs and
 * out-of-range sizes are refused with a message naming what.
 */
import { describe, expect, it } from 'vitest'
import { checkLogoDraws } from '../../../daemon/qr/render.js'
import { checkSvgLogo, SVG_LOGO_LIMITS, SvgLogoError } from '../../../daemon/qr/svg-logo.js'
import { dataUrl, HOSTILE_SVG_LOGO, SVG_LOGO } from '../../support/qr-images.js'

const SVG = 'xmlns="http://www.w3.org/2000/svg"'
const svg = (inner: string, attrs = 'width="40" height="40"') => `<svg ${SVG} ${attrs}>${inner}</svg>`

/** The reason `text` is refused (it must be). */
function refusal(text: string): string {
  try {
    checkSvgLogo(Buffer.from(text))
  } catch (err) {
    expect(err).toBeInstanceOf(SvgLogoError)
    return (err as Error).message
  }
  throw new Error(`expected a refusal of ${text}`)
}

/** Logos as editors export them. */
const ALLOWED = {
  'a plain logo': SVG_LOGO,
  'Illustrator: declaration, DOCTYPE, comment, CDATA style sheet, classes': `<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px"
\t viewBox="0 0 100 100" style="enable-background:new 0 0 100 100;" xml:space="preserve">
<style type="text/css">
\t.st0{fill:#1D4ED8;}
\t.st1{fill:none;stroke:#FFFFFF;stroke-width:8;stroke-miterlimit:10;}
</style>
<rect class="st0" width="100" height="100" rx="12"/>
<circle class="st1" cx="50" cy="50" r="28"/>
</svg>`,
  'Inkscape: its own namespaces and metadata': `<svg width="64" height="64" viewBox="0 0 16.9 16.9" version="1.1"
  xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
  xmlns="http://www.w3.org/2000/svg" xmlns:svg="http://www.w3.org/2000/svg" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <sodipodi:namedview id="nv" pagecolor="#ffffff" inkscape:zoom="4" />
  <metadata><rdf:RDF><rdf:Description about="x"/></rdf:RDF></metadata>
  <g inkscape:label="Layer 1" inkscape:groupmode="layer" id="layer1">
    <path style="fill:#ff5a1f;fill-opacity:1;stroke:none;stroke-width:0.26" d="M 2,2 H 15 V 15 H 2 Z" sodipodi:nodetypes="ccccc" />
  </g>
</svg>`,
  'gradients, clip paths and <use> by #id (xlink and SVG 2 href)': svg(
    `<defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient>
     <clipPath id="c"><circle cx="20" cy="20" r="18"/></clipPath><path id="p" d="M0 0h10v10z"/></defs>
     <rect width="40" height="40" fill="url(#g)" clip-path="url('#c')"/>
     <use xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="#p" x="5"/><use href="#p" y="20"/>`,
  ),
  'text (not drawn: no fonts) and entities': svg(
    '<text x="2" y="20" font-family="Arial">R&amp;D &#169;</text>',
  ),
}

describe('SVG logos as design tools export them pass, and draw', () => {
  for (const [name, text] of Object.entries(ALLOWED))
    it(name, async () => {
      expect(() => checkSvgLogo(Buffer.from(text))).not.toThrow()
      await checkLogoDraws(dataUrl('image/svg+xml', text))
    })
})

describe('SVG logos outside the subset are refused, saying why', () => {
  it('the filter that froze the daemon (feTurbulence numOctaves=100000)', () => {
    expect(Buffer.byteLength(HOSTILE_SVG_LOGO)).toBeLessThan(400)
    expect(refusal(HOSTILE_SVG_LOGO)).toMatch(/^has a <filter> element; /)
  })

  it('filters by element (prefixed too), attribute and CSS property (attribute and <style>)', () => {
    expect(refusal(svg('<feTurbulence numOctaves="9"/>'))).toMatch(/<feTurbulence>/)
    expect(
      refusal(svg('<s:filter id="f"/>', 'xmlns:s="http://www.w3.org/2000/svg" width="4" height="4"')),
    ).toMatch(/<filter>/)
    expect(refusal(svg('<rect width="4" height="4" filter="url(#f)"/>'))).toBe(
      'has the attribute filter on <rect>, which logos may not use',
    )
    expect(refusal(svg('<rect width="4" height="4" style="fill:red;filter:blur(3px)"/>'))).toMatch(
      /^sets filter in the style of <rect>/,
    )
    expect(refusal(svg('<style>rect{fil<![CDATA[ter:blur(3px)}]]></style><rect/>'))).toMatch(
      /^sets filter in <style>/,
    )
    expect(refusal(svg('<rect style="&#102;ilter:blur(3px)"/>'))).toMatch(/^sets filter/)
    expect(refusal(svg('<style>rect{fi\\6c ter:blur(3px)}</style>'))).toMatch(/backslash/)
  })

  it('images, scripts, foreign objects, links, patterns, masks and markers', () => {
    for (const el of [
      'image',
      'script',
      'foreignObject',
      'a',
      'pattern',
      'mask',
      'marker',
      'switch',
      'iframe',
    ])
      expect(refusal(svg(`<${el}/>`))).toMatch(new RegExp(`^has a <${el}> element; `))
  })

  it('references outside the logo: href and url() other than #id, xml:base', () => {
    expect(refusal(svg('<use href="http://example.com/a.svg#x"/>'))).toMatch(
      /^has href="http:\/\/example\.com\/a\.svg#x" on <use>/,
    )
    expect(
      refusal(svg('<use xmlns:l="http://www.w3.org/1999/xlink" l:href="data:image/svg+xml,abc"/>')),
    ).toMatch(/^has href="data:/)
    expect(refusal(svg('<rect fill="url(https://example.com/p.svg#g)"/>'))).toMatch(/^has url\(https:/)
    expect(refusal(svg('<style>rect{fill:url( "file:///etc/passwd" )}</style>'))).toMatch(/^has url\(file:/)
    expect(refusal(svg('<style>@import "x.css";</style>'))).toMatch(/@import/)
    expect(refusal(svg('<g xml:base="http://example.com/"/>'))).toMatch(/xml:base/)
  })

  it('entity declarations and unknown entities (DOCTYPE internal subsets)', () => {
    expect(refusal(`<!DOCTYPE svg [<!ENTITY a "aaaa">]>${svg('<text>&a;</text>')}`)).toMatch(/DOCTYPE/)
    expect(refusal(svg('<text>&nbsp;</text>'))).toMatch(/entity &nbsp;/)
    expect(refusal(`<?xml-stylesheet href="x.css"?>${svg('')}`)).toMatch(/processing instruction/)
  })

  it(`more than ${SVG_LOGO_LIMITS.elements} elements, counting what each <use> shows; a <use> cycle`, () => {
    const rects = (n: number) => '<rect width="1" height="1"/>'.repeat(n)
    expect(() => checkSvgLogo(Buffer.from(svg(rects(SVG_LOGO_LIMITS.elements - 1))))).not.toThrow()
    expect(refusal(svg(rects(SVG_LOGO_LIMITS.elements)))).toMatch(/^has more than 2000 elements/)
    // Ten levels of ten <use> each: a few dozen elements in the file, 10^10 drawn.
    let bomb = '<g id="l0"><rect width="1" height="1"/></g>'
    for (let i = 1; i <= 10; i++) bomb += `<g id="l${i}">${`<use href="#l${i - 1}"/>`.repeat(10)}</g>`
    expect(refusal(svg(`<defs>${bomb}</defs><use href="#l10"/>`))).toMatch(/^has more than 2000 elements/)
    expect(refusal(svg('<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>'))).toBe(
      'has a <use> that shows itself',
    )
  })

  it(`nesting deeper than ${SVG_LOGO_LIMITS.depth}`, () => {
    const nest = (n: number) => '<g>'.repeat(n) + '</g>'.repeat(n)
    expect(() => checkSvgLogo(Buffer.from(svg(nest(SVG_LOGO_LIMITS.depth - 1))))).not.toThrow()
    expect(refusal(svg(nest(SVG_LOGO_LIMITS.depth)))).toBe('nests elements more than 32 deep')
  })

  it('a root size or viewBox out of range', () => {
    expect(() =>
      checkSvgLogo(Buffer.from(svg('', 'width="10000" height="5cm" viewBox="-1e6 0 1e6 1"'))),
    ).not.toThrow()
    expect(refusal(svg('', 'width="10001"'))).toBe(
      'has width="10001"; it must be a number above 0 and at most 10000',
    )
    expect(refusal(svg('', 'height="0"'))).toMatch(/^has height="0"/)
    expect(refusal(svg('', 'width="1e9px"'))).toMatch(/^has width="1e9px"/)
    expect(refusal(svg('', 'viewBox="0 0 1e7 10"'))).toMatch(/^has viewBox="0 0 1e7 10"/)
    expect(refusal(svg('', 'viewBox="0 0 0 10"'))).toMatch(/^has viewBox=/)
    expect(refusal(svg('', 'viewBox="0 0 10"'))).toMatch(/^has viewBox=/)
  })

  it('markup that is not well-formed SVG, or not SVG', () => {
    for (const [text, reason] of [
      ['<html><svg/></html>', /^is not an SVG image/],
      ['<svg width="4"/>', /^is not an SVG image/],
      [`<svg ${SVG}><g></svg>`, /not well-formed/],
      [`<svg ${SVG}><rect width=4/></svg>`, /not well-formed/],
      [`<svg ${SVG}><rect a="1" a="2"/></svg>`, /given twice/],
      [`<svg ${SVG}/><svg ${SVG}/>`, /more than one root/],
      [`<svg ${SVG}><x:rect/></svg>`, /prefix x is not declared/],
      [`<svg ${SVG}>a & b</svg>`, /not well-formed/],
      [`<svg ${SVG}><!-- open`, /unterminated comment/],
      ['', /^is not an SVG image/],
    ] as const)
      expect(refusal(text), text).toMatch(reason)
  })
})
