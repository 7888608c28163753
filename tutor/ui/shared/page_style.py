"""The lessons and teacher pages' stylesheet (one <style> block in an HTML widget), added to
the dashboard's (:mod:`tutor.ui.shared.style`) whose fonts and colours the pages share. Every text
colour here has at least 4.5:1 contrast on its background (WCAG AA)."""

import ipywidgets as widgets

__all__ = ["PAGE_CSS", "page_stylesheet"]

PAGE_CSS = """
<style>
.ld-page { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
           color: #1f2933; max-width: 1100px; }
.ld-page h2 { margin: 0 12px 0 0; font-size: 22px; color: #17412f; }
.ld-page h3 { margin: 14px 0 4px; font-size: 18px; color: #17412f; }
.ld-page h4 { margin: 10px 0 4px; font-size: 15px; }
.ld-page .ld-header { align-items: center; gap: 10px; margin-bottom: 4px; flex-wrap: wrap; }
.ld-page .ld-page-notes { color: #b42318; font-weight: 600; }
.ld-page table { border-collapse: collapse; font-size: 14px; margin: 4px 0 8px; }
.ld-page caption { text-align: left; font-weight: 600; padding: 4px 0; color: #1f2933; }
.ld-page th, .ld-page td { padding: 4px 8px; border-bottom: 1px solid #d6dde4;
                           text-align: left; vertical-align: top; }
.ld-page thead th { background: #eef2f5; color: #1f2933; }
.ld-page td.ld-num, .ld-page th.ld-num { text-align: right; }
.ld-page .ld-legend { font-size: 13px; color: #52606d; }
.ld-page a { color: #0b5cad; font-weight: 600; }
.ld-page th[scope=row] { font-weight: 400; }
.ld-page .ld-done-cell { white-space: nowrap; }
.ld-page .ld-done { color: #0b7a35; font-weight: 700; }
.ld-page .ld-todo { color: #52606d; }
/* The student's assignments, first on the lessons page: one card each, narrow enough for a
   phone (no table to scroll sideways); long titles and names wrap. */
.ld-page .ld-assignments { margin: 4px 0 12px; }
.ld-page .ld-assignment { border: 1px solid #d6dde4; border-left: 4px solid #17412f;
                          border-radius: 6px; padding: 6px 10px; margin: 6px 0;
                          overflow-wrap: anywhere; }
.ld-page .ld-assignment h4 { margin: 2px 0; }
.ld-page .ld-assignment p { margin: 2px 0; }
.ld-page .ld-assignment-state { font-weight: 600; }
.ld-page .ld-state-overdue { color: #b42318; }
.ld-page .ld-state-done { color: #0b7a35; }
.ld-page .ld-assignment-lessons { margin: 4px 0; padding-left: 22px; }
.ld-page .ld-assignment-lessons li { margin: 4px 0; }
.ld-page .ld-assignment-notes { margin: 4px 0; padding-left: 18px; }
/* The lessons table's mastery cell (issue 52, part 4): one chip per skill, its name and
   percentage on a line, a bar under it, its evidence wrapping under that; the chips wrap
   side by side, so the cell is as narrow as the window needs. */
.ld-page td.ld-skills { min-width: 11em; }
.ld-page .ld-skill { display: inline-block; vertical-align: top; white-space: normal;
                     width: 15em; max-width: 100%; margin: 0 10px 6px 0; line-height: 1.35; }
.ld-page .ld-skill-name { font-weight: 600; }
.ld-page .ld-bar { display: block; height: 6px; margin: 3px 0; border-radius: 3px;
                   background: #d6dde4; overflow: hidden; }
.ld-page .ld-bar-fill { display: block; height: 100%; background: #17412f; }
.ld-page .ld-skill .ld-evidence { display: block; font-size: 13px; color: #52606d; }
.ld-page .ld-ok { color: #0b7a35; font-weight: 700; }
.ld-page .ld-msg { color: #b42318; font-weight: 600; }
.ld-page table.ld-heat td.ld-cell { text-align: center; min-width: 64px;
                                    border: 2px solid #ffffff; font-weight: 600; }
.ld-page table.ld-heat th[scope=row] { white-space: nowrap; }
.ld-page .ld-swatch { display: inline-block; padding: 2px 8px; margin-right: 4px;
                      border-radius: 4px; font-weight: 600; }
/* The class table's sort buttons (the sorted column's dark), and each student's answers:
   a name that opens them, wrong tries in red, words for screen readers only. */
.ld-page .ld-sort-buttons { flex-wrap: wrap; gap: 4px; align-items: center; }
.ld-page .ld-sort-buttons .ld-sort-label { color: #1f2933; margin-right: 4px; }
.ld-page .ld-sort-buttons button.ld-sorted { background: #17412f; color: #ffffff; }
.ld-page table.ld-class-table th.ld-sorted { text-decoration: underline; }
.ld-page details > summary { cursor: pointer; padding: 4px 0; }
.ld-page .ld-student-name { color: #0b5cad; font-weight: 600; }
.ld-page .ld-own-answers > summary { color: #0b5cad; font-weight: 600; }
.ld-page .ld-typed { white-space: nowrap; }
.ld-page .ld-typed.ld-wrong { color: #b42318; }
.ld-page .ld-typed.ld-ok { color: #0b7a35; }
.ld-page .ld-sr { position: absolute !important; width: 1px; height: 1px; padding: 0;
                  margin: -1px; overflow: hidden; clip: rect(0, 0, 0, 0);
                  white-space: nowrap; border: 0; }
.ld-page .ld-form { gap: 4px; }
.ld-page .ld-form .widget-label { color: #1f2933; }
.ld-page .ld-checks { flex-wrap: wrap; gap: 0 12px; }
.ld-page .ld-upload-box { align-items: center; gap: 10px; flex-wrap: wrap; }
/* The assignments (issue 45): each student's state in words and colour, the counts line,
   the lessons chosen in order; on a phone each field's label goes above its box. */
.ld-page .ld-warn { color: #5c4a00; font-weight: 600; }
.ld-page table.ld-assign-table td.ld-state-done { color: #0b7a35; font-weight: 700; }
.ld-page table.ld-assign-table td.ld-state-overdue { color: #b42318; font-weight: 700; }
.ld-page table.ld-assign-table th.ld-sorted { text-decoration: underline; }
.ld-page .ld-assign-counts { font-weight: 600; margin: 4px 0; }
.ld-page .ld-assign-order { margin: 0 0 4px 150px; padding-left: 20px; }
.ld-page .ld-assign-link input { font-family: ui-monospace, monospace; }
/* A whole address shown as text breaks anywhere, so a long link never widens a phone's page. */
.ld-page .ld-assign-shown-link, .ld-page .ld-next-href { overflow-wrap: anywhere;
                                                   word-break: break-all; }
.ld-page .ld-assign-settings .jupyter-widget-Collapse-header,
.ld-page .ld-assign-settings .jupyter-widget-Collapse-header > span {
  color: #1f2933; background: #eef2f5; }
@media (max-width: 480px) {
  .ld-page .ld-assignments .widget-inline-hbox { flex-wrap: wrap; }
  .ld-page .ld-assignments .widget-inline-hbox > .widget-label {
    width: 100% !important; max-width: 100%; text-align: left; }
  .ld-page .ld-assign-order { margin-left: 0; }
}
/* The name form's heading comes under the page's title (h2 too, the play page's level). */
.ld-page .ld-name-form h2 { margin: 14px 0 4px; font-size: 18px; }
/* A finger's tap targets on a phone: buttons, boxes and menus at least 44 × 44 px. */
@media (max-width: 480px) {
  .ld-page .jupyter-button { height: 44px; line-height: 44px; min-width: 44px; }
  .ld-page .widget-text, .ld-page .widget-text input, .ld-page .widget-dropdown,
  .ld-page .widget-dropdown select { height: 44px; }
  .ld-page .widget-text .widget-label, .ld-page .widget-dropdown .widget-label {
    line-height: 44px; }
  .ld-page .widget-textarea textarea { min-height: 44px; }
}
/* A table wider than the window scrolls sideways in its own box (tutor.ui.shared.tables),
   never the page; a widget's box keeps to the window too. */
.ld-page .widget-html-content { max-width: 100%; overflow-x: auto; }
.ld-page .ld-table-scroll { max-width: 100%; overflow-x: auto; }
.ld-page .ld-table-scroll:focus-visible { outline: 2px solid #0b5cad; outline-offset: 2px; }
</style>
"""


def page_stylesheet() -> widgets.HTML:
    """The widget that carries :data:`PAGE_CSS` into the page."""
    return widgets.HTML(PAGE_CSS)
