# transport-breast_cancer.gp - written by akm from the CSV files in this folder.
# Re-render transport-breast_cancer.png and transport-breast_cancer.svg from inside this folder:  gnuplot transport-breast_cancer.gp
set datafile separator ','
set datafile missing NaN
set title 'R1 breast cancer: β − β̃_i = ηλ̂_i per Σ̂ eigen-direction (η = 0.5)'
set xlabel 'direction i (Σ̂ eigenvalues descending)'
set ylabel 'β − β̃_i'
set logscale y
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'transport-breast_cancer.png'
plot 'data_breast_cancer.csv' every ::1 using 1:6:7 with yerrorbars pt 7 ps 0.8 title 'measured (AK buffer)', \
     'data_breast_cancer.csv' every ::1 using 1:4 with lines lw 2 title 'exact finite-sample ηλ̂_i', \
     'data_breast_cancer.csv' every ::1 using 1:5 with lines lw 2 title 'Gaussian closed form ηλ̂^G_i'
set terminal svg size 900,600 dynamic enhanced
set output 'transport-breast_cancer.svg'
replot
unset output
