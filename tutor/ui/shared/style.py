"""The dashboard's stylesheet (one <style> block shipped inside an HTML widget).

Every text colour meets WCAG AA (4.5:1) on its background, the ipywidgets button styles
included (their stock green, blue, orange and cyan do not with white text). The page fits a
1366×768 screen: the question sits beside the board; under about 1240 px it goes under the
board, and the board scales down with the window instead of overflowing."""

import ipywidgets as widgets

__all__ = ["CSS", "stylesheet"]

CSS = """
<style>
.ld-app { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
          color: #1f2933; max-width: 1280px; }
.ld-app .ld-top { align-items: center; gap: 10px; flex-wrap: wrap; margin-bottom: 2px;
                  overflow: visible; }  /* the keyboard help opens below it, over the page */
.ld-app .ld-header { align-items: center; gap: 10px; flex-wrap: wrap; }
.ld-app .ld-title h1 { margin: 0 12px 0 0; font-size: 22px; color: #17412f; }
.ld-app .ld-name-form h2 { margin: 1em 0; font-size: 1.17em; }  /* as its h3 was */
.ld-app .ld-main { gap: 14px; align-items: flex-start; flex-wrap: wrap; }
.ld-app .ld-play { flex: 100 1 480px; max-width: 804px; min-width: 0; }  /* the board first */
.ld-app .ld-side { flex: 1 1 420px; max-width: 100%; gap: 10px; }
.ld-app .ld-board-slot { width: 100%; }
.ld-app canvas.ld-board { border-radius: 10px; max-width: 100%; height: auto; display: block;
  touch-action: manipulation; }
.ld-app .ld-card { background: #f6f8fa; border: 1px solid #d6dde4; border-radius: 10px;
                   padding: 8px 12px; }
.ld-app table.ld-score-table { border-collapse: collapse; width: 100%; font-size: 14px; }
.ld-app table.ld-score-table th, .ld-app table.ld-score-table td {
  padding: 4px 6px; border-bottom: 1px solid #e1e6eb; text-align: right; }
.ld-app table.ld-score-table th:first-child, .ld-app table.ld-score-table td:first-child {
  text-align: left; }
.ld-app table.ld-score-table td:first-child { white-space: nowrap; }
.ld-app tr.ld-turn td { background: #fff4d6; font-weight: 600; }
.ld-app table.ld-lesson-summary { border-collapse: collapse; width: 100%; font-size: 14px;
  margin: 4px 0 8px; }
.ld-app table.ld-lesson-summary th, .ld-app table.ld-lesson-summary td {
  padding: 4px 6px; border-bottom: 1px solid #e1e6eb; text-align: left; }
.ld-app table.ld-lesson-summary caption { text-align: left; font-weight: 600; }
.ld-app .ld-lesson-end .ld-done { color: #0b7a35; font-weight: 700; }
.ld-app .ld-lesson-end .ld-todo { color: #52606d; }
.ld-app a.ld-lessons-link { font-weight: 600; }
.ld-app td.ld-flash { color: #0b7a35; font-weight: 700; background: #dcfce7; }
.ld-app td.ld-flash-down { color: #b42318; font-weight: 700; background: #fee4e2; }
.ld-app .ld-hidden-pts { color: #5c4a00; font-style: italic; }
.ld-app .ld-bars { font-size: 13px; }
.ld-app .ld-bar-row { display: grid; grid-template-columns: 150px 1fr 38px; gap: 6px;
                      align-items: center; margin: 3px 0; }
.ld-app .ld-bar { background: #e4e8ec; border-radius: 4px; height: 9px; position: relative;
                  overflow: hidden; }
.ld-app .ld-bar > span { display: block; height: 100%; border-radius: 4px; }
.ld-app .ld-bar.m > span { background: #2f9e62; }
.ld-app .ld-bar.a > span { background: #3b82f6; }
.ld-app .ld-status { font-size: 15px; min-height: 24px; }
.ld-app .ld-lesson { font-size: 15px; color: #17412f; }
.ld-app .ld-accuracy { margin: 4px 0; padding-left: 18px; font-size: 14px; }
.ld-app .ld-status .ld-msg { color: #b42318; font-weight: 600; }
.ld-app .ld-status .ld-info { color: #1f2933; }
/* Answers waiting for the store: said at the head of the question's column. */
.ld-app .ld-unsaved { padding: 8px 12px; background: #fff4e5; border-left: 4px solid #b42318;
                      color: #b42318; font-weight: 600; font-size: 15px; }
.ld-app .ld-practice { padding: 8px 12px; background: #eef4ff; border-left: 4px solid #1d4ed8;
                       color: #1e3a8a; font-weight: 600; font-size: 15px; }
.ld-app .ld-moves { flex-wrap: wrap; gap: 6px; width: 100%; }
.ld-app .ld-move { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 15px;
                   min-width: 92px; }
/* Digits 1-9 press the moves: the number shows on the button. */
.ld-app .ld-moves { counter-reset: ld-move; }
.ld-app .ld-move::before { counter-increment: ld-move; content: counter(ld-move) "\\a0";
                           color: #52606d; font-size: 12px; }
.ld-app .ld-move:nth-child(n+10)::before { content: ""; }
/* A game's own move (Cuban's redeal): in words, not notation; why it is offered below. */
.ld-app .ld-extra-move { font-family: inherit; }
.ld-app .ld-extra-why { flex-basis: 100%; font-size: 13px; color: #52606d; }
.ld-app .ld-tutor { border: 2px solid #f0b429; background: #fffbea; border-radius: 12px;
                    padding: 10px 14px; gap: 6px; }
.ld-app .ld-answer-row { flex-wrap: wrap; gap: 6px; }
.ld-app .ld-question { font-size: 17px; }
.ld-app .ld-answer input { font-size: 18px; }
.ld-app .ld-feedback { font-size: 15px; }
.ld-app math { font-size: 1.3em; margin: 4px 0; }
.ld-app .ld-ok { color: #0b7a35; font-weight: 700; }
.ld-app .ld-bad { color: #b42318; font-weight: 700; }
.ld-app .ld-warn { color: #5c4a00; font-weight: 600; }
.ld-app .ld-cover { background: #23364a; color: #fff; border-radius: 12px; padding: 24px;
                    align-items: center; gap: 10px; aspect-ratio: 800 / 470; }
.ld-app .ld-cover h2 { color: #fff; margin: 0; font-size: 22px; }
.ld-app .ld-cover .widget-html-content, .ld-app .ld-cover p { color: #e6edf3; text-align: center; }
.ld-app .ld-round-title { margin: 2px 0; font-size: 1.17em; }
.ld-app .ld-round-end { border: 2px solid #2f9e62; background: #effaf3; border-radius: 12px;
                        padding: 10px 14px; gap: 6px; }
.ld-app .ld-log { font-size: 13px; color: #52606d; }
.ld-app .ld-log li { margin: 1px 0; }
.ld-app table.ld-sheet { border-collapse: collapse; font-size: 13px; }
.ld-app table.ld-sheet th, .ld-app table.ld-sheet td { border: 1px solid #cbd2d9;
                                                       padding: 2px 6px; text-align: center; }
.ld-app table.ld-sheet td.total { background: #f0f4f8; font-weight: 600; }
.ld-app a.ld-download { margin-right: 14px; font-weight: 600; color: #124b8c; }
.ld-app .ld-legend { font-size: 12px; color: #52606d; }
.ld-app .ld-setup, .ld-app .ld-sheet { margin-top: 8px; }

/* A phone (at most 480 px wide): one column, in the order the student needs it. The board,
   the question right under it (so both are on screen while the student answers), then the
   moves, the round's end, the scores and the rest. The two columns' boxes step aside
   (display: contents) so that their panels can be ordered as one list. The question does not
   repeat the line of play the board above it shows. Tables fit the width: narrower cells, and
   a table still too wide scrolls in its own box instead of being cut off. */
@media (max-width: 480px) {
  .ld-app .ld-main { flex-direction: column; flex-wrap: nowrap; align-items: stretch; gap: 8px; }
  .ld-app .ld-main > .ld-play, .ld-app .ld-main > .ld-side { display: contents; }
  .ld-app .ld-main > .ld-play > *, .ld-app .ld-main > .ld-side > * { order: 3; min-width: 0;
                                                                       max-width: 100%; }
  .ld-app .ld-main > .ld-play > .ld-board-slot { order: 1; }
  .ld-app .ld-main > .ld-side > .ld-saving, .ld-app .ld-main > .ld-side > .ld-tutor { order: 2; }
  .ld-app .ld-tutor .ld-situation-line { display: none; }
  .ld-app .ld-tutor { padding: 8px 10px; }
  .ld-app .ld-answer { width: 100% !important; max-width: 240px; }
  .ld-app table.ld-score-table th, .ld-app table.ld-score-table td,
  .ld-app table.ld-lesson-summary th, .ld-app table.ld-lesson-summary td { padding: 3px 4px; }
  .ld-app .ld-scores .widget-html-content, .ld-app .ld-match .widget-html-content,
  .ld-app .ld-match-end .widget-html-content, .ld-app .ld-lesson-end .widget-html-content,
  .ld-app .ld-sheet-table .widget-html-content { max-width: 100%; overflow-x: auto; }
  .ld-app .ld-bar-row { grid-template-columns: minmax(0, 120px) 1fr 38px; }
  /* A finger's tap targets: every button, box, menu and accordion header at least 44 × 44
     px (ipywidgets draws them 28 px tall), the answer box as tall as its buttons. */
  .ld-app .jupyter-button { height: 44px; line-height: 44px; min-width: 44px; }
  .ld-app .widget-text, .ld-app .widget-text input, .ld-app .widget-dropdown,
  .ld-app .widget-dropdown select, .ld-app .widget-checkbox { height: 44px; }
  .ld-app .widget-text .widget-label, .ld-app .widget-dropdown .widget-label,
  .ld-app .widget-checkbox .widget-label-basic { line-height: 44px; }
  .ld-app .jupyter-widget-Collapse-header { min-height: 44px; display: flex;
                                            align-items: center; }
}

/* Contrast: the stock ipywidgets button colours give white text 2.2-4.1:1. */
.ld-app .jupyter-button.mod-success { background-color: #2e7d32; color: #fff; }
.ld-app .jupyter-button.mod-primary { background-color: #1565c0; color: #fff; }
.ld-app .jupyter-button.mod-info { background-color: #00707e; color: #fff; }
.ld-app .jupyter-button.mod-warning { background-color: #ffd77a; color: #3d2c00;
                                      border: 1px solid #b7791f; }
.ld-app .jupyter-widget-Collapse-header,
.ld-app .jupyter-widget-Collapse-header:hover { color: #1f2933; }

/* The keyboard: a focus ring that shows on every background. */
.ld-app :focus-visible { outline: 3px solid #1565c0; outline-offset: 2px; }
.ld-app canvas.ld-board:focus-visible { outline: 4px solid #ffbf47; outline-offset: 2px; }

/* Read by screen readers, not shown. */
.ld-sr { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
         overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }
.ld-app .ld-access { position: absolute; width: 1px; height: 1px; overflow: hidden; }

/* The keyboard help: a list that opens over the page instead of pushing it down. */
.ld-app .ld-help-panel { position: relative; overflow: visible; }
.ld-app .ld-help summary { cursor: pointer; font-weight: 600; padding: 4px 8px;
                           border: 1px solid #cbd2d9; border-radius: 6px; background: #fff; }
.ld-app .ld-help[open] .ld-help-body { position: absolute; z-index: 20; right: 0; width: 420px;
  max-width: 90vw; background: #fff; border: 1px solid #cbd2d9; border-radius: 8px;
  padding: 8px 12px; box-shadow: 0 6px 18px rgba(0, 0, 0, 0.18); font-size: 14px; }
.ld-app .ld-help table { border-collapse: collapse; margin-bottom: 6px; width: 100%; }
.ld-app .ld-help caption { text-align: left; font-weight: 600; padding: 4px 0; }
.ld-app .ld-help th { text-align: left; padding: 2px 10px 2px 0; white-space: nowrap;
                      font-weight: normal; }
.ld-app .ld-help kbd { border: 1px solid #9aa5b1; border-radius: 4px; padding: 0 5px;
                       background: #f6f8fa; font-family: ui-monospace, monospace; }
</style>
"""


def stylesheet() -> widgets.HTML:
    """The widget that carries :data:`CSS` into the page."""
    return widgets.HTML(CSS)
