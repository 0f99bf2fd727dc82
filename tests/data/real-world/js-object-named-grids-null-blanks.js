const sudokus = {
    sudoku1:  [
        [8, 2, null, 1, 9, null, null, 3, null],
        [null, null, 1, null, 2, null, null, null, null],
        [null, null, null, null, null, null, null, null, 1],
        [null, null, null, 9, null, 3, null, null, 1],
        [1, 9, null, 8, null, 2, null, 6, 3],
        [5, null, null, 1, null, 7, null, null, null],
        [4, null, null, null, null, null, null, null, null],
        [null, null, null, null, 5, null, 9, null, null],
        [null, 8, null, null, 1, 4, null, 7, 3]
    ],
    sudoku2:  [
        [null, null, 3, null, null, 4, null, null, null],
        [1, null, null, 7, null, null, null, 5, null],
        [null, 7, 5, null, null, null, 1, 6, null],
        [null, null, null, 5, null, 1, null, 6, null],
        [null, null, 7, 8, null, 9, 5, null, null],
        [null, 5, null, 2, null, 7, null, null, null],
        [null, 8, 6, null, null, null, 7, 3, null],
        [null, 4, null, null, null, 2, null, null, 1],
        [null, null, null, 8, null, null, 5, null, null]
    ],
    sudoku3:  [
        [null, 1, null, null, null, null, null, 6, 3],
        [null, 4, null, 6, null, null, 2, null, null],
        [8, null, null, null, null, 4, null, null, 9],
        [null, null, 9, 5, null, 8, null, 3, null],
        [5, null, null, null, null, null, null, null, 1],
        [null, 7, null, 6, null, 1, 4, null, null],
        [8, null, null, 7, null, null, null, null, 6],
        [null, null, 2, null, null, 5, null, 9, null],
        [9, 1, null, null, null, null, null, 8, null]
    ],
    sudoku4: [
        [null, null, null, null, null, 3, null, null, 1],
        [9, null, 3, null, null, null, 7, null, null],
        [null, 2, null, 4, null, 7, null, 6, null],
        [null, null, null, 4, null, null, 8, null, null],
        [5, null, 9, 2, null, 8, 1, null, 7],
        [null, null, 1, null, null, 9, null, null, null],
        [null, 7, null, 6, null, 2, null, 5, null],
        [null, null, 1, null, null, null, 8, null, 6],
        [6, null, null, 7, null, null, null, null, null]
    ]
}

export default sudokus;
