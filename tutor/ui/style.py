"""The dashboard's stylesheet (one <style> block shipped inside an HTML widget)."""

import ipywidgets as widgets

__all__ = ["CSS", "stylesheet"]

CSS = """
<style>
.ld-app { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
          color: #1f2933; max-width: 1240px; }
.ld-app .ld-header { align-items: center; gap: 10px; margin-bottom: 4px; }
.ld-app .ld-title h2 { margin: 0 12px 0 0; font-size: 22px; color: #17412f; }
.ld-app .ld-main { gap: 14px; align-items: flex-start; flex-wrap: wrap; }
.ld-app .ld-board canvas { border-radius: 10px; }
.ld-app .ld-side { gap: 10px; }
.ld-app .ld-card { background: #f6f8fa; border: 1px solid #d6dde4; border-radius: 10px;
                   padding: 8px 12px; }
.ld-app table.ld-score-table { border-collapse: collapse; width: 100%; font-size: 14px; }
.ld-app table.ld-score-table th, .ld-app table.ld-score-table td {
  padding: 4px 6px; border-bottom: 1px solid #e1e6eb; text-align: right; }
.ld-app table.ld-score-table th:first-child, .ld-app table.ld-score-table td:first-child {
  text-align: left; }
.ld-app table.ld-score-table td:first-child { white-space: nowrap; }
.ld-app tr.ld-turn td { background: #fff4d6; font-weight: 600; }
.ld-app td.ld-flash { color: #0b7a35; font-weight: 700; background: #dcfce7; }
.ld-app td.ld-flash-down { color: #b42318; font-weight: 700; background: #fee4e2; }
.ld-app .ld-hidden-pts { color: #8a6d00; font-style: italic; }
.ld-app .ld-bars { font-size: 13px; }
.ld-app .ld-bar-row { display: grid; grid-template-columns: 150px 1fr 38px; gap: 6px;
                      align-items: center; margin: 3px 0; }
.ld-app .ld-bar { background: #e4e8ec; border-radius: 4px; height: 9px; position: relative;
                  overflow: hidden; }
.ld-app .ld-bar > span { display: block; height: 100%; border-radius: 4px; }
.ld-app .ld-bar.m > span { background: #2f9e62; }
.ld-app .ld-bar.a > span { background: #3b82f6; }
.ld-app .ld-status { font-size: 15px; min-height: 24px; }
.ld-app .ld-status .ld-msg { color: #b42318; font-weight: 600; }
.ld-app .ld-status .ld-info { color: #1f2933; }
.ld-app .ld-moves { flex-wrap: wrap; gap: 6px; }
.ld-app .ld-move { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 15px;
                   min-width: 92px; }
.ld-app .ld-tutor { border: 2px solid #f0b429; background: #fffbea; border-radius: 12px;
                    padding: 10px 14px; gap: 6px; }
.ld-app .ld-question { font-size: 17px; }
.ld-app .ld-answer input { font-size: 18px; }
.ld-app .ld-feedback { font-size: 15px; }
.ld-app .ld-ok { color: #0b7a35; font-weight: 700; }
.ld-app .ld-bad { color: #b42318; font-weight: 700; }
.ld-app .ld-warn { color: #8a6d00; font-weight: 600; }
.ld-app .ld-cover { background: #23364a; color: #fff; border-radius: 12px; padding: 24px;
                    align-items: center; gap: 10px; }
.ld-app .ld-cover h3 { color: #fff; margin: 0; font-size: 22px; }
.ld-app .ld-cover .widget-html-content, .ld-app .ld-cover p { color: #e6edf3; text-align: center; }
.ld-app .ld-round-end { border: 2px solid #2f9e62; background: #effaf3; border-radius: 12px;
                        padding: 10px 14px; gap: 6px; }
.ld-app .ld-log { font-size: 13px; color: #52606d; }
.ld-app .ld-log li { margin: 1px 0; }
.ld-app table.ld-sheet { border-collapse: collapse; font-size: 13px; }
.ld-app table.ld-sheet th, .ld-app table.ld-sheet td { border: 1px solid #cbd2d9;
                                                       padding: 2px 6px; text-align: center; }
.ld-app table.ld-sheet td.total { background: #f0f4f8; font-weight: 600; }
.ld-app a.ld-download { margin-right: 14px; font-weight: 600; }
.ld-app .ld-legend { font-size: 12px; color: #52606d; }
</style>
"""


def stylesheet() -> widgets.HTML:
    """The widget that carries :data:`CSS` into the page."""
    return widgets.HTML(CSS)
