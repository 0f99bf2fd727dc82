export const puzzles = {
  easy: [
    [
      [1, null, null, 4],
      [null, 3, 2, null],
      [null, 1, 4, null],
      [2, null, null, 3]
    ],
    [
      [null, 1, 4, null],
      [3, null, null, 2],
      [1, null, null, 4],
      [null, 2, 3, null]
    ],
    [
      [1, null, null, 4],
      [null, null, null, null],
      [null, 2, 3, null],
      [null, null, null, null]
    ],
    [
      [null, null, null, 2],
      [null, 3, null, null],
      [null, null, 4, null],
      [1, null, null, null]
    ],
    [
      [3, null, null, null],
      [null, null, 2, null],
      [null, 1, null, null],
      [null, null, null, 4]
    ]
  ],
  medium: [
    [
      [5, null, 6, null, null, null],
      [null, 2, null, null, 1, 6],
      [3, null, null, null, null, null],
      [null, 5, null, null, 6, null],
      [1, 3, null, null, 5, 4],
      [6, null, null, null, null, null]
    ],
    [
      [5, null, null, 3, null, null],
      [3, null, null, null, 1, null],
      [null, 6, null, null, 2, 5],
      [null, 2, null, null, null, null],
      [6, null, 1, null, null, null],
      [2, null, null, null, null, null]
    ],
    [
      [4, null, 3, 2, null, 1],
      [2, null, 1, 4, null, null],
      [null, 1, 2, 6, null, 5],
      [null, null, null, null, 1, null],
      [1, null, 4, null, 3, 6],
      [5, null, null, null, null, 4]
    ],
    [
      [null, 2, null, null, 3, 6],
      [3, 1, null, null, null, null],
      [6, 5, 2, 3, 1, null],
      [1, 3, 4, null, 2, null],
      [null, null, 1, null, 4, null],
      [null, 4, 3, 5, null, null]
    ],
    [
      [null, 1, 2, 5, null, null],
      [null, 4, null, null, null, null],
      [null, null, null, 1, 5, null],
      [1, null, null, 2, null, null],
      [4, null, null, null, null, null],
      [3, 2, 5, 4, 6, null]
    ]
  ],
  hard: [
    [
      [5, 3, null, null, 7, null, null, null, null],
      [6, null, null, 1, 9, 5, null, null, null],
      [null, 9, 8, null, null, null, null, 6, null],
      [8, null, null, null, 6, null, null, null, 3],
      [4, null, null, 8, null, 3, null, null, 1],
      [7, null, null, null, 2, null, null, null, 6],
      [null, 6, null, null, null, null, 2, 8, null],
      [null, null, null, 4, 1, 9, null, null, 5],
      [null, null, null, null, 8, null, null, 7, 9]
    ],
    [
      [5, 3, null, null, 7, null, null, null, null],
      [6, null, null, 1, 9, 5, null, null, null],
      [null, 9, 8, null, null, null, null, 6, null],
      [8, null, null, null, 6, null, null, null, 3],
      [4, null, null, 8, null, 3, null, null, 1],
      [7, null, null, null, 2, null, null, null, 6],
      [null, 6, null, null, null, null, 2, 8, null],
      [null, null, null, 4, 1, 9, null, null, 5],
      [null, null, null, null, 8, null, null, 7, 9]
    ],
    [
      [5, 3, null, null, 7, null, null, null, null],
      [6, null, null, 1, 9, 5, null, null, null],
      [null, 9, 8, null, null, null, null, 6, null],
      [8, null, null, null, 6, null, null, null, 3],
      [4, null, null, 8, null, 3, null, null, 1],
      [7, null, null, null, 2, null, null, null, 6],
      [null, 6, null, null, null, null, 2, 8, null],
      [null, null, null, 4, 1, 9, null, null, 5],
      [null, null, null, null, 8, null, null, 7, 9]
    ],
    [
      [5, 3, null, null, 7, null, null, null, null],
      [6, null, null, 1, 9, 5, null, null, null],
      [null, 9, 8, null, null, null, null, 6, null],
      [8, null, null, null, 6, null, null, null, 3],
      [4, null, null, 8, null, 3, null, null, 1],
      [7, null, null, null, 2, null, null, null, 6],
      [null, 6, null, null, null, null, 2, 8, null],
      [null, null, null, 4, 1, 9, null, null, 5],
      [null, null, null, null, 8, null, null, 7, 9]
    ],
    [
      [5, 3, null, null, 7, null, null, null, null],
      [6, null, null, 1, 9, 5, null, null, null],
      [null, 9, 8, null, null, null, null, 6, null],
      [8, null, null, null, 6, null, null, null, 3],
      [4, null, null, 8, null, 3, null, null, 1],
      [7, null, null, null, 2, null, null, null, 6],
      [null, 6, null, null, null, null, 2, 8, null],
      [null, null, null, 4, 1, 9, null, null, 5],
      [null, null, null, null, 8, null, null, 7, 9]
    ]
  ]
};
