console.log = 1;
