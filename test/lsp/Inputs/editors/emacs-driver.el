;;; Test driver, loaded after the recipe: opens $WARP_FILE as a user would,
;;; runs the command loop's hooks that batch mode lacks (eglot-ensure and
;;; flymake start from post-command-hook), waits for the warp diagnostics
;;; flymake receives, prints them and exits.
(find-file (getenv "WARP_FILE"))
(princ (format "emacs: major mode %s\n" major-mode))
(defun warp-test--warp-diagnostics ()
  (seq-filter (lambda (d) (string-match-p "warp-" (flymake-diagnostic-text d)))
              (flymake-diagnostics)))
(let ((deadline (+ (float-time) 120)))
  (while (and (< (float-time) deadline) (null (warp-test--warp-diagnostics)))
    (run-hooks 'post-command-hook)
    (accept-process-output nil 0.2)))
(dolist (d (flymake-diagnostics))
  (princ (format "%d: %s\n" (line-number-at-pos (flymake-diagnostic-beg d))
                 (car (split-string (flymake-diagnostic-text d) "\n")))))
(princ (if (warp-test--warp-diagnostics) "emacs: warp diagnostics received\n"
         "emacs: timed out\n"))
;; The quick fixes eglot is offered for each warp diagnostic (what
;; eglot-code-actions lists), asked as eglot asks.
(dolist (d (flymake-diagnostics))
  (let ((lsp-diag (alist-get 'eglot-lsp-diag (flymake-diagnostic-data d))))
    (when (and lsp-diag (string-prefix-p "warp-" (or (plist-get lsp-diag :code) "")))
      (dolist (action (append (jsonrpc-request
                               (eglot-current-server) :textDocument/codeAction
                               (list :textDocument (eglot--TextDocumentIdentifier)
                                     :range (plist-get lsp-diag :range)
                                     :context (list :diagnostics (vector lsp-diag))))
                              nil))
        (princ (format "%d: fix: %s\n" (line-number-at-pos (flymake-diagnostic-beg d))
                       (car (split-string (plist-get action :title) "\n"))))))))
(kill-emacs 0)
