# Stands in for scripts/setup.sh in script-progress.test (no apt).
echo "setup: stand-in"
