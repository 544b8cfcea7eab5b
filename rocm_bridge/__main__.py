from rocm_bridge.cli import main

if __name__ == "__main__":  # importing the module (as tools that walk the package do) must not run the CLI
    raise SystemExit(main())
