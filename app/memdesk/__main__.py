from memdesk.entry import main

raise SystemExit(main())
