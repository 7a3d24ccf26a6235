import type { CSSProperties, ReactNode } from 'react';

// Small inline icons (the kit has no icon set); stroke follows the text colour.
function Svg({ size = 18, style, children }: { size?: number; style?: CSSProperties; children: ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      style={style}
    >
      {children}
    </svg>
  );
}

export const FolderIcon = ({ size }: { size?: number }) => (
  <Svg size={size}>
    <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
  </Svg>
);

export const FileIcon = ({ size }: { size?: number }) => (
  <Svg size={size}>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
    <path d="M14 3v5h5" />
  </Svg>
);

/** The lock of STAFF ONLY folders. */
export const LockIcon = ({ size = 14 }: { size?: number }) => (
  <span
    role="img"
    aria-label="Staff only"
    title="Staff only"
    style={{ display: 'inline-flex' }}
    data-testid="staff-only-lock"
  >
    <Svg size={size}>
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V8a4 4 0 0 1 8 0v3" />
    </Svg>
  </span>
);

export const DotsIcon = () => (
  <Svg>
    <circle cx="5" cy="12" r="1" />
    <circle cx="12" cy="12" r="1" />
    <circle cx="19" cy="12" r="1" />
  </Svg>
);

export const ChevronIcon = ({ open }: { open: boolean }) => (
  <Svg size={14} style={{ transform: open ? 'rotate(90deg)' : undefined, transition: 'transform 120ms' }}>
    <path d="M9 6l6 6-6 6" />
  </Svg>
);
