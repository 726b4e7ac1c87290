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
(kill-emacs 0)
